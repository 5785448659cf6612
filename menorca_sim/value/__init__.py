"""The learned value (issue 42): a seat's features from the public state (features) and the
model's file and its cheap evaluation (model). It imports only the game's read API, so
players may use it; its training, which reads datasets, is menorca_sim/learn/."""
