"""The run pipeline: an experiment's plan, played in chunks by workers, stored as tables.

experiment (TOML -> plan) -> runner (chunks in parallel, resume) -> chunk_worker (plays a
chunk, within limits) -> records and trajectory (rows) -> parquet_store (atomic parts and
their manifest, one writer per folder: dataset_lock); outcomes holds the tables' schemas
and fuzz runs invariant-checked games through the same machinery. Seeds: menorca_sim.seeding.
Import the modules themselves: this package imports nothing, so `import menorca_sim.run`
stays light."""
