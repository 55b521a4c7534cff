"""The pbem command: a thin layer over the library (see README.md)."""

from __future__ import annotations

import argparse
import sys


def cmd_map_check(args) -> int:
    from pbem.games.marengo.board import check_board

    status = 0
    for path in args.files:
        problems = check_board(path)
        if problems:
            status = 1
            print(f"{path}: {len(problems)} problem(s)")
            for p in problems:
                print(f"  - {p}")
        else:
            print(f"{path}: ok")
    return status


def cmd_adjudicate(args) -> int:
    from pbem.games.marengo.cases import CaseError, run_case, show

    failed = 0
    for path in args.files:
        try:
            outcome = run_case(path)
        except CaseError as exc:
            print(f"ERROR {exc}")
            failed += 1
            continue
        if outcome.ok:
            print(f"ok    {path}: {outcome.title}")
        else:
            failed += 1
            print(f"FAIL  {path}: {outcome.title}")
            for f in outcome.failures:
                print(f"      - {f}")
        if args.show:
            print(show(outcome))
            print()
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_selfplay(args) -> int:
    from pbem.selfplay import play

    for seed in range(args.seed, args.seed + args.games):
        game = play(args.scenario, seed)
        state = game.state
        print(f"seed {seed}: {state.victory} (morale {state.morale})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_map = sub.add_parser("map", help="work with map files")
    map_sub = p_map.add_subparsers(dest="map_command", required=True)
    p_check = map_sub.add_parser("check", help="validate map files and list every problem")
    p_check.add_argument("files", nargs="+")
    p_check.set_defaults(func=cmd_map_check)

    p_adj = sub.add_parser("adjudicate", help="run adjudication case files (docs/cases.md)")
    p_adj.add_argument("files", nargs="+")
    p_adj.add_argument("--show", action="store_true", help="print the position after each case")
    p_adj.set_defaults(func=cmd_adjudicate)

    p_self = sub.add_parser("selfplay", help="play whole games between two bots and print the results")
    p_self.add_argument("--scenario", default=default_scenario())
    p_self.add_argument("--seed", type=int, default=1)
    p_self.add_argument("--games", type=int, default=1)
    p_self.set_defaults(func=cmd_selfplay)
    return parser


def default_scenario() -> str:
    from pbem.paths import MAPS

    return str(MAPS / "marengo.toml")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
