"""`menorca-sim learn`: the learned value (menorca_sim/value/) fitted to the `states` tables
of self-play datasets (train). A room above the run pipeline, whose datasets it reads;
menorca_sim/value/ stays below it, so a player can read a model without the pipeline."""
