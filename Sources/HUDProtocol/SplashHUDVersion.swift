// SPDX-License-Identifier: MIT
// SplashHUD's version: the one number every binary prints (`--version` of splashhudd, splashhud,
// splashhud-tools and splashhud-mqtt, `splashhud version`) and the daemon's `version` reply
// carries. It lives in HUDProtocol, the lowest module all four binaries link that is about
// SplashHUD rather than pixels, beside the control protocol's own version (`ControlProtocol.version`).
// A release changes it and CHANGELOG.md's newest heading together; VersionTests fails when one of
// them is forgotten.

public enum SplashHUDVersion {
    /// Semantic versioning (MAJOR.MINOR.PATCH); below 1.0 a minor release may change what a user relies on.
    public static let current = "0.9.0"
}
