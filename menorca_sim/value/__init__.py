"""The learned value (issue 42): features of a state (features), the model's file and its
cheap evaluation (model), and its training from recorded states (train: `menorca-sim learn`)."""
