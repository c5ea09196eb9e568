// The splashhud command; subcommands arrive in their own files.
print("splashhud: under construction")
