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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_map = sub.add_parser("map", help="work with map files")
    map_sub = p_map.add_subparsers(dest="map_command", required=True)
    p_check = map_sub.add_parser("check", help="validate map files and list every problem")
    p_check.add_argument("files", nargs="+")
    p_check.set_defaults(func=cmd_map_check)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
