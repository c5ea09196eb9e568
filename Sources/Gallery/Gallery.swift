import Raster
import Assets
/// The reference frame and the primitive gallery (filled in by the lead).
public enum Gallery {}
