// SPDX-License-Identifier: MIT
// What the bridge publishes besides replies: the daemon's state (retained, from the watcher's
// `subscribe state`), its events and snapshots. A changed state goes out at once unless one went
// out less than `stateInterval` ago (a ramping progress changes it every frame), then at the end
// of that interval; an unchanged one again every `heartbeat`, each publish stamped with the
// kiosk's time and a rising seq (StateStamp).
import HUDProtocol

extension BridgeCore {
    func stateChanged(_ json: String, now: Instant) {
        guard json != lastState else { return }
        lastState = json
        statePending = true
        stateTimers(now: now)
    }

    /// Publishes the state when its change or its heartbeat is due.
    func stateTimers(now: Instant) {
        guard let due = stateDeadline, now >= due else { return }
        publishState(now: now)
    }

    /// When the state is next due.
    var stateDeadline: Instant? {
        guard phase == .connected, lastState != nil else { return nil }
        return lastPublished + (statePending ? configuration.stateInterval : configuration.heartbeat)
    }

    /// The last state, stamped with the time and the next seq, retained: on a change, after every
    /// CONNACK, and as the heartbeat.
    func publishState(now: Instant) {
        guard phase == .connected, let lastState else { return }
        lastPublished = now
        statePending = false
        let json = stamp.stamp(lastState, wallNanoseconds: clock.wallNanoseconds)
        do { _ = try mqtt.publish(configuration.topics.state, Array(json.utf8), qos: 1, retain: true, properties: nil) } catch { log("state: \(error)") }
    }

    /// QoS 0: events are a live feed (dashboards); one link brings them in order.
    func publishEvent(_ e: HUDEvent) {
        guard phase == .connected else { return }
        do { _ = try mqtt.publish(configuration.topics.event, Array(JSONText.event(e).utf8), qos: 0, retain: false, properties: nil) } catch {
            log("event: \(error)")
        }
    }

    func answer(_ route: ReplyRoute, _ line: String) {
        guard phase == .connected else { return }
        let properties = PublishProperties(contentType: "text/plain; charset=utf-8", correlationData: route.correlationData)
        do { _ = try mqtt.publish(route.topic, Array(line.utf8), qos: 1, retain: false, properties: properties) } catch {
            log("reply to \(route.topic): \(error)")
        }
    }

    func publishSnapshot(_ route: ReplyRoute, errorRoute: ReplyRoute, _ shot: FittedSnapshot, output: String) {
        guard phase == .connected else { return }
        let user = [("output", output), ("size", "\(shot.width)x\(shot.height)"), ("original-size", "\(shot.originalWidth)x\(shot.originalHeight)"),
                    ("scale", shot.scaleDivisor == 1 ? "1" : "1/\(shot.scaleDivisor)")].map { PublishProperties.UserProperty(name: $0.0, value: $0.1) }
        let properties = PublishProperties(contentType: "image/png", correlationData: route.correlationData, userProperties: user)
        do { _ = try mqtt.publish(route.topic, shot.png, qos: 1, retain: false, properties: properties) } catch {
            let why = error.isOversize ? "the snapshot (\(shot.png.count) bytes) is over the broker's packet limit" : "\(error)"
            answer(errorRoute, ControlReply.error(.failed, why).line)
        }
    }
}
