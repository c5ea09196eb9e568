// placeholder, replaced by the cairo scene
#pragma once
int ccairo_scene_version(void);
