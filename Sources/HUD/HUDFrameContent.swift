// SPDX-License-Identifier: MIT
/// What a frame draws (`HUDController.frameContent`): while the HUD rests on the generation an
/// output shows, only its indicator at the frame's instant, which needs no copy of the
/// presentation; otherwise the presentation.
public enum HUDFrameContent {
    case indicator(HUDPresentation.Indicator, isAnimating: Bool)
    case presentation(HUDPresentation)

    public var isAnimating: Bool {
        switch self {
        case .indicator(_, let animating): animating
        case .presentation(let p): p.isAnimating
        }
    }
}
