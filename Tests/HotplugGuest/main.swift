// Guest program for the hotplug end-to-end test (issue 4 part 7); written in the hotplug work.
print("splashhud-hotplug-guest: not yet written")
