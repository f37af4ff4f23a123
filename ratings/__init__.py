"""Players' ratings (the *classement Atout*): openskill over every partie of every finished
tournament, rebuilt by the worker after each one (docs/rules.md, "The Atout rating")."""
