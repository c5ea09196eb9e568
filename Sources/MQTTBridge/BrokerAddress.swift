// SPDX-License-Identifier: MIT
// `--broker mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (TLS, 8883); an IPv6 literal in
// brackets. The host is kept as written: TLS checks the certificate and sends SNI with it.

struct BrokerAddress: Equatable, Sendable {
    var host: String
    var port: Int32
    var tls: Bool

    init(host: String, port: Int32, tls: Bool) { self.host = host; self.port = port; self.tls = tls }

    /// nil when `url` is not one of the two forms.
    init?(_ url: String) {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") { tls = false; rest = url.dropFirst(7) } else if url.hasPrefix("mqtts://") {
            tls = true; rest = url.dropFirst(8)
        } else { return nil }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        var host: Substring, port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { port = nil } else if after.hasPrefix(":") { port = after.dropFirst() } else { return nil }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]; port = authority[authority.index(after: colon)...]
        } else { host = authority; port = nil }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == "@" || $0 == " " }) else { return nil }
        let number = port.map { Int32($0) } ?? (tls ? 8883 : 1883)
        guard let number, (1...65535).contains(number) else { return nil }
        self.init(host: String(host), port: number, tls: tls)
    }

    var url: String { (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}
