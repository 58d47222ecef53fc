"""Tools of the ``tribune`` command that are neither training nor contests: the demo game and the benchmark."""
