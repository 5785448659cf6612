"""`menorca-sim play`: play one game and print its result."""
from __future__ import annotations

from pathlib import Path

import click

from menorca_sim.cli.errors import Seed, one_line_errors


@click.command("play")
@click.option("--players", type=int, default=3, show_default=True, help="Number of players.")
@click.option("--seed", type=Seed(), default=0, show_default=True, help="The game's seed.")
@click.option("--minors", default=None,
              help="The two minors in play, e.g. Ramaders,Artesans (default: drawn).")
@click.option("--policies", "policy_specs", default="random_legal", show_default=True,
              help="Policy per seat, comma-separated; one name applies to every seat.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write a JSON-lines game log.")
@click.option("--show", "show_dir", type=click.Path(file_okay=False), default=None,
              help="Write the game viewer's page to this folder (with the log, when --log is not given).")
@click.option("--check", is_flag=True, help="Check the rule invariants after every action.")
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Ruleset TOML (default: the built-in one).")
@one_line_errors
def command(players: int, seed: int, minors: str | None, policy_specs: str, log_path: str | None,
            show_dir: str | None, check: bool, rules_path: str | None) -> None:
    """Play one game of 1713 Menorca and print its result."""
    from menorca_sim.play import play_game, seat_policies
    from menorca_sim.rules import load_ruleset
    from menorca_sim.run.experiment import check_policy_spec
    from policies.spec import split_seat_specs

    rs = load_ruleset(rules_path) if rules_path else load_ruleset()
    if players not in rs.player_counts:
        raise click.BadParameter(f"the ruleset has no {players}-player setup "
                                 f"(it has {', '.join(map(str, sorted(rs.player_counts)))})", param_hint="--players")
    specs = split_seat_specs(policy_specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise click.BadParameter(f"{len(specs)} policies for {players} players", param_hint="--policies")
    for spec in dict.fromkeys(specs):
        check_policy_spec(spec, rs)
    policies = seat_policies(specs, seed)
    minor_list = parse_minors(rs, minors) if minors else None
    if show_dir is not None and log_path is None:  # the page is made from the log
        Path(show_dir).mkdir(parents=True, exist_ok=True)
        log_path = str(Path(show_dir) / "game.jsonl")
    game = play_game(rs, seed, policies, minors=minor_list, check=check, log=log_path)
    summary = game.summary()
    click.echo(f"seed {seed}, {players} players, minors {', '.join(summary['minors'])}, "
               f"legacies {', '.join(summary['legacies'])}")
    for seat, row in enumerate(summary["seats"]):
        click.echo(f"  P{seat + 1} {policies[seat].name:<16} wealth {row['wealth']:>6}  cash {row['cash']:>6}"
                   f"  rank {row['rank']}")
    winners = ", ".join(f"P{w + 1}" for w in summary["winners"])
    click.echo(f"winner: {winners}; end: {summary['end_reason']}; "
               f"{summary['srs']} stock rounds, {summary['ors']} operating rounds")
    if show_dir is not None:
        from menorca_sim.viewer import write_page

        click.echo(f"viewer: {write_page(log_path, show_dir, rs)}")


def parse_minors(rs, text: str) -> list[str]:
    """`A,B` into the minors in play, each a minor of the ruleset, as many as it draws."""
    names = [m.strip() for m in text.split(",")]
    unknown = [m for m in names if m not in rs.minors]
    want = rs.setup.minors_in_play
    if unknown or len(set(names)) != len(names) or len(names) != want:
        problem = f"unknown minor {unknown[0]!r}" if unknown else f"{text!r} is not {want} different minors"
        raise click.BadParameter(f"{problem} (the ruleset has {', '.join(rs.minors)})", param_hint="--minors")
    return names

