// SPDX-License-Identifier: MIT
// The daemon side for real: each link a non-blocking connection to the control socket (connected
// and checked as ControlClient connects), in the bridge's epoll set. Requests wait in the link's
// output until the socket takes them (write interest only then); what comes back is cut into
// lines and snapshots (DaemonLinkReader) and handed to the state machine as events. Nothing here
// waits: a `wait` owed on one link holds nobody else.
import HUDClient
import HUDProtocol
import LinuxSystem
import SystemPackage

final class DaemonSockets: DaemonTransport {
    private final class Link {
        let descriptor: FileDescriptor
        let name: String
        var output: [UInt8] = []
        var writing = false
        var reader = DaemonLinkReader()
        init(descriptor: FileDescriptor, name: String) { self.descriptor = descriptor; self.name = name }
    }

    private let socket: String?
    private let epoll: Epoll
    private var links: [Int: Link] = [:]
    private var byDescriptor: [Int32: Int] = [:]
    private var nextID = 1
    private var events: [DaemonEvent] = []
    /// Where read(2) lands, made once.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)

    init(socket: String?, epoll: Epoll) {
        self.socket = socket; self.epoll = epoll
    }

    deinit {
        for id in Array(links.keys) { close(id) }
        chunk.deallocate()
    }

    func open() throws(ControlClientError) -> Int {
        let fd: FileDescriptor, name: String
        do { (fd, name) = try ControlClient.connect(socket: socket, timeoutMilliseconds: 0) } catch {
            // A full backlog: there is no wait to speak of, only a daemon not accepting.
            if case .timedOut(let at, _) = error { throw .io("splashhudd at \(at) is not accepting connections (its backlog is full)") }
            throw error
        }
        do { try epoll.add(fd.rawValue, read: true, write: false) } catch {
            Files.close(fd)
            throw .io("\(error)")
        }
        let id = nextID
        nextID += 1
        links[id] = Link(descriptor: fd, name: name)
        byDescriptor[fd.rawValue] = id
        return id
    }

    func send(_ line: String, on id: Int, snapshot: Bool) {
        guard let link = links[id] else { return }
        link.output += Array(line.utf8) + [0x0A]
        link.reader.expect(snapshot: snapshot)
        flush(id, link)
    }

    func close(_ id: Int) {
        guard let link = links.removeValue(forKey: id) else { return }
        byDescriptor[link.descriptor.rawValue] = nil
        epoll.remove(link.descriptor.rawValue)
        Files.close(link.descriptor)
    }

    func takeEvents() -> [DaemonEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Whether `fd` is one of the links.
    func owns(_ fd: Int32) -> Bool { byDescriptor[fd] != nil }

    func ready(_ e: Epoll.Event) {
        guard let id = byDescriptor[e.descriptor], let link = links[id] else { return }
        if e.writable { flush(id, link) }
        if links[id] != nil, e.readable || e.hangup || e.error { read(id, link) }
    }

    // MARK: Bytes

    private func lose(_ id: Int, _ error: ControlClientError) {
        close(id)
        events.append(.lost(link: id, error))
    }

    private func flush(_ id: Int, _ link: Link) {
        var done = 0
        while done < link.output.count {
            let r = link.output.withUnsafeBytes { b in
                Result { () throws(SystemError) in try UnixSocket.send(link.descriptor, UnsafeRawBufferPointer(rebasing: b[done...]), subject: link.name) }
            }
            switch r {
            case .success(let n?): done += n
            case .success(nil):
                link.output.removeFirst(done)
                return want(write: true, link)
            case .failure(let e) where e.errno == .brokenPipe || e.errno == .connectionReset: return lose(id, .daemonClosed)
            case .failure(let e): return lose(id, .io("\(e)"))
            }
        }
        link.output.removeAll(keepingCapacity: true)
        want(write: false, link)
    }

    private func want(write: Bool, _ link: Link) {
        guard link.writing != write else { return }
        link.writing = write
        do { try epoll.modify(link.descriptor.rawValue, read: true, write: write) } catch { Bridge.log("epoll: \(error)") }
    }

    /// Reads what is there (a bounded amount a turn: the level-triggered set calls again).
    private func read(_ id: Int, _ link: Link) {
        for _ in 0..<4 {
            let r = Result { () throws(SystemError) in try Files.read(link.descriptor, into: chunk, subject: link.name) }
            switch r {
            case .success(nil): return
            case .success(0?): return lose(id, .daemonClosed)
            case .success(let n?):
                do { events += try link.reader.take(UnsafeRawBufferPointer(rebasing: chunk[0..<n]), link: id) } catch { return lose(id, error) }
            case .failure(let e) where e.errno == .connectionReset: return lose(id, .daemonClosed)
            case .failure(let e): return lose(id, .io("\(e)"))
            }
        }
    }
}
