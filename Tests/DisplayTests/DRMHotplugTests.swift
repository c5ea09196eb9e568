// SPDX-License-Identifier: MIT
// Connector hotplug on one card (DRMOutputPlan) and the card selection of DRMDisplaySet.

import Testing

@testable import Display

@Suite("DRM hotplug plan")
struct DRMHotplugTests {
    static let m1024 = DRMModeCandidate(width: 1024, height: 768, refreshMillihertz: 60_004, isPreferred: true)
    static let m1280 = DRMModeCandidate(width: 1280, height: 800, refreshMillihertz: 59_810)
    static let m800 = DRMModeCandidate(width: 800, height: 600, refreshMillihertz: 60_317)

    typealias C = DRMOutputPlan.Connector
    typealias Cur = DRMOutputPlan.Current

    @Test func nothingChangedIsAnEmptyPlan() {
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 0, mode: Self.m1024)],
            connectors: [C(id: 34, isConnected: true, modes: [Self.m1280, Self.m1024], possibleCRTCs: 0b11, currentCRTCIndex: 0)],
            crtcCount: 2)
        #expect(plan.isEmpty)
    }

    @Test func aNewConnectorGetsAFreeCRTCNotTheOneInUse() {
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 0, mode: Self.m1024)],
            connectors: [C(id: 34, isConnected: true, modes: [Self.m1024], possibleCRTCs: 0b11, currentCRTCIndex: 0),
                         C(id: 36, isConnected: true, modes: [Self.m800], possibleCRTCs: 0b11)],
            crtcCount: 2)
        #expect(plan.drop.isEmpty)
        #expect(plan.add.map(\.connector) == [1])
        #expect(plan.add.map(\.crtcIndex) == [1])
    }

    @Test func aDisconnectedOneIsDroppedAndTheOthersKept() {
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 0, mode: Self.m1024), Cur(connectorID: 36, crtcIndex: 1, mode: Self.m800)],
            connectors: [C(id: 34, isConnected: false, modes: [], possibleCRTCs: 0b11),
                         C(id: 36, isConnected: true, modes: [Self.m800], possibleCRTCs: 0b11, currentCRTCIndex: 1)],
            crtcCount: 2)
        #expect(plan.drop.map(\.index) == [0])
        #expect(plan.drop.map(\.reason) == [.disconnected])
        #expect(plan.add.isEmpty)
    }

    @Test func aVanishedConnectorCountsAsDisconnected() {
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 90, crtcIndex: 2, mode: Self.m1024)], connectors: [], crtcCount: 3)
        #expect(plan.drop.map(\.index) == [0])
        #expect(plan.drop.map(\.reason) == [.disconnected])
    }

    @Test func aMonitorSwapWithoutTheOldModeIsRecreatedOnTheFreedCRTC() {
        // Same connector, another monitor: 1024x768 is gone. Dropped and set up again; the CRTC it
        // had is free again, so it takes it back.
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 1, mode: Self.m1024)],
            connectors: [C(id: 34, isConnected: true, modes: [Self.m1280, Self.m800], possibleCRTCs: 0b10, currentCRTCIndex: 1)],
            crtcCount: 2)
        #expect(plan.drop.map(\.reason) == [.modeGone])
        #expect(plan.add.map(\.connector) == [0])
        #expect(plan.add.map(\.crtcIndex) == [1])
    }

    @Test func thePreferredMarkMovingIsNotAModeChange() {
        var notPreferred = Self.m1024
        notPreferred.isPreferred = false
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 0, mode: Self.m1024)],
            connectors: [C(id: 34, isConnected: true, modes: [notPreferred], possibleCRTCs: 1, currentCRTCIndex: 0)], crtcCount: 1)
        #expect(plan.isEmpty)
    }

    @Test func noCRTCLeftIsNilAndConnectedWithoutModesIsIgnored() {
        let plan = DRMOutputPlan.plan(
            current: [Cur(connectorID: 34, crtcIndex: 0, mode: Self.m1024)],
            connectors: [C(id: 34, isConnected: true, modes: [Self.m1024], possibleCRTCs: 1, currentCRTCIndex: 0),
                         C(id: 35, isConnected: true, modes: [], possibleCRTCs: 1),
                         C(id: 36, isConnected: true, modes: [Self.m800], possibleCRTCs: 1)],
            crtcCount: 1)
        #expect(plan.add.map(\.connector) == [2])
        #expect(plan.add.map(\.crtcIndex) == [nil])
    }

    @Test func assignmentSkipsTakenCRTCs() {
        #expect(DRMCRTCAssignment.assign([(0b111, nil), (0b111, 0)], crtcCount: 3, taken: [0]) == [1, 2])
    }

    @Test func cardSelectionByPathAndDriver() {
        let all = DRMDisplaySetOptions()
        #expect(all.allows(path: "/dev/dri/card3") && all.allows(driver: "anything"))
        let some = DRMDisplaySetOptions(devicePaths: ["/dev/dri/card1"], drivers: ["virtio-gpu", "bochs-drm"])
        #expect(some.allows(path: "/dev/dri/card1"))
        #expect(!some.allows(path: "/dev/dri/card0"))
        #expect(some.allows(driver: "virtio_gpu"))  // '-' and '_' alike, as modprobe treats them
        #expect(some.allows(driver: "bochs-drm"))
        #expect(!some.allows(driver: "simpledrm"))
    }

    @Test func unpluggedMeansENODEVOnly() {
        #expect(DRMDisplaySet.isUnplugged(.ioctl("drmModeAtomicCommit", .operationNotSupportedByDevice, "/dev/dri/card1")))
        #expect(DRMDisplaySet.isUnplugged(.syscall("mmap", .operationNotSupportedByDevice, "/dev/dri/card1")))
        #expect(!DRMDisplaySet.isUnplugged(.ioctl("drmModeAtomicCommit", .invalidArgument, "/dev/dri/card1")))
        #expect(!DRMDisplaySet.isUnplugged(.masterLost("drmSetMaster", .resourceBusy, "/dev/dri/card0")))
    }

    @Test func masterLostSaysWhoToBlameAndThatPresentRetries() {
        let e = DisplayError.masterLost("drmSetMaster", .resourceBusy, "/dev/dri/card0")
        #expect("\(e)" == "ioctl drmSetMaster (another process holds DRM master: a compositor, another splash program or a "
            + "VT switch took it; present will retry) on /dev/dri/card0 failed: Device or resource busy (errno 16)")
    }

    /// No card nodes at all: a clear error naming the directory, not a crash.
    @Test func aSetWithoutCardsIsAClearError() {
        do {
            _ = try DRMDisplaySet(options: DRMDisplaySetOptions(watchHotplug: false, directory: "/nonexistent/dri"))
            Issue.record("opened a set without cards")
        } catch {
            #expect("\(error)" == "/nonexistent/dri: unsupported: no card to show on: no card nodes")
        }
    }
}
