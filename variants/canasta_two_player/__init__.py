"""Placeholder: this plugin is being written (issue 3); it contributes nothing yet."""
