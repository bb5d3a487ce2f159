"""A student's own dice module, which must win over hogbench's stand-in."""

six_sided = "the student's own"
