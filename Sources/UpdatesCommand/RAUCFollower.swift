// SPDX-License-Identifier: MIT
// `splashhud-updates rauc`: RAUC's installer on the system bus for as long as the program runs.
// It watches `de.pengutronix.rauc`'s owner (never starting RAUC by D-Bus activation), reads the
// installer's properties once RAUC is there (a follower started mid-install sees no history
// otherwise), then its `PropertiesChanged` and `Completed` signals, and hands the views to the HUD
// sink. The bus missing or lost is waited out with back-off and said once; RAUC leaving the bus
// mid-install ends the bar with an error, as the install is over.
import LinuxSystem
import UpdateSources

final class RAUCFollower {
    static let name = "de.pengutronix.rauc", path = "/", interface = "de.pengutronix.rauc.Installer"
    static let dbus = "org.freedesktop.DBus", properties = "org.freedesktop.DBus.Properties"

    let sink: HUDSink
    private var progress = RAUCProgress()
    private var retrying: Retrying
    /// RAUC's unique name on the bus while it is there.
    private var owner: String?
    /// What the signal handlers read, handled once `process` returns (no calls from inside sd-bus's dispatch).
    private var pending: [Pending] = []

    enum Pending {
        case owner(String?)
        case properties([String: BusValue])
        case completed(Int32)
    }

    init(sink: HUDSink) throws(SystemError) {
        self.sink = sink
        retrying = try Retrying()
    }

    func run() -> Int32 {
        while true {
            do {
                try follow()
            } catch where error.call == "sd_bus_open_system" {
                retrying.say("the system bus is not there (\(error)); waiting for it")
            } catch {
                retrying.say("lost the system bus (\(error)); connecting again")
            }
            owner = nil
            pending.removeAll()
            retrying.pause()
        }
    }

    /// One connection to the bus: returns only by throwing when it is lost.
    private func follow() throws(BusError) {
        let bus = try SystemBus()
        try bus.addMatch("type='signal',sender='\(Self.dbus)',interface='\(Self.dbus)',member='NameOwnerChanged',arg0='\(Self.name)'") { [unowned self] m in
            guard (try? m.readString()) == Self.name, (try? m.readString()) != nil, let new = try? m.readString() else { return }
            pending.append(.owner(new.isEmpty ? nil : new))
        }
        try bus.addMatch("type='signal',path='\(Self.path)',interface='\(Self.properties)',member='PropertiesChanged',arg0='\(Self.interface)'") { [unowned self] m in
            guard m.sender != nil, m.sender == owner, (try? m.readString()) == Self.interface, let changed = try? m.readProperties() else { return }
            pending.append(.properties(changed))
        }
        try bus.addMatch("type='signal',path='\(Self.path)',interface='\(Self.interface)',member='Completed'") { [unowned self] m in
            guard m.sender != nil, m.sender == owner, let result = try? m.readInt32() else { return }
            pending.append(.completed(result))
        }
        // Matched first, asked second: an owner that comes between the two is heard either way.
        let current: String?
        do {
            current = try bus.call(Self.dbus, "/org/freedesktop/DBus", Self.dbus, "GetNameOwner", [Self.name]) { m throws(BusError) in try m.readString() }
        } catch where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            current = nil
        }
        retrying.connected()
        ownerChanged(to: current, on: bus)
        while true {
            try bus.process()
            let events = pending
            pending.removeAll()
            for event in events {
                switch event {
                case .owner(let new): ownerChanged(to: new, on: bus)
                case .properties(let changed): show(changed)
                case .completed(let result): completed(result, on: bus)
                }
            }
            if pending.isEmpty { try bus.wait() }
        }
    }

    private func ownerChanged(to new: String?, on bus: SystemBus) {
        guard new != owner || new == nil else { return }
        owner = new
        guard new != nil else {
            if progress.active { sink.show(.failed(reason: "RAUC stopped before the update completed")) }
            progress = RAUCProgress()
            retrying.say("waiting for RAUC (\(Self.name)) on the system bus")
            return
        }
        retrying.say("following RAUC's installer on the system bus")
        let all: [String: BusValue]
        do {
            all = try bus.call(Self.name, Self.path, Self.properties, "GetAll", [Self.interface]) { m throws(BusError) in try m.readProperties() }
        } catch {
            // RAUC left again, or refused: its signals still say what happens next (a lost bus,
            // the next `process`).
            Log.say("cannot read RAUC's installer: \(error)")
            return
        }
        // An install already under way is shown from where it is; an idle RAUC shows nothing.
        if case .string("installing")? = all["Operation"] { show(all) }
    }

    private func show(_ changed: [String: BusValue]) {
        var events: [RAUCEvent] = []
        if case .string(let e)? = changed["LastError"] { events.append(.lastError(e)) }
        if case .string(let o)? = changed["Operation"] { events.append(.operation(o)) }
        if case .intStringInt(let p, let message, let depth)? = changed["Progress"] { events.append(.progress(percent: p, message: message, depth: depth)) }
        for event in events {
            if let view = progress.view(for: event) { sink.show(view) }
        }
    }

    /// `Completed`: on a failure, `LastError` is read from RAUC itself, whichever order its
    /// property change and the signal came in.
    private func completed(_ result: Int32, on bus: SystemBus) {
        var error: String?
        if result != 0 {
            error = try? bus.call(Self.name, Self.path, Self.properties, "Get", [Self.interface, "LastError"]) { m throws(BusError) in
                try m.readVariantString()
            }
        }
        if let view = progress.view(for: .completed(result: result, lastError: error)) { sink.show(view) }
    }
}
