"""The pbem command: a thin layer over the library (see README.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def game_of(args):
    """The ruleset named by ``--game``, and the scenario of ``--scenario`` loaded (a name the
    game lists, a file under maps/, or a path; default: the game's first scenario)."""
    from pathlib import Path

    from pbem.games import ruleset
    from pbem.paths import MAPS

    rules = ruleset(args.game)
    args.options = game_options_of(rules, getattr(args, "option", None))
    name = getattr(args, "scenario", None)
    if not name:
        path = next(iter(rules.scenarios().values()))
    elif name in rules.scenarios():
        path = rules.scenarios()[name]
    else:
        path = Path(name) if Path(name).exists() else MAPS / name
    return rules, rules.load_scenario(path)


def game_options_of(rules, items) -> dict:
    """``--option NAME=VALUE`` as the game's options (the others at their defaults); a wrong one is
    a clear error."""
    from pbem.core.ruleset import options_of

    chosen = dict(item.partition("=")[::2] for item in items or [])
    try:
        return options_of(rules, chosen)
    except ValueError as exc:
        choices = "; ".join(f"{o.name}={'|'.join(o.choices)}" for o in rules.options()) or "none"
        raise LookupError(f"--option {' '.join(items)}: {exc}; {rules.title}'s options are {choices}") from None


def cmd_games(args) -> int:
    from pbem.core.ruleset import options_of
    from pbem.games import rulesets

    for name, rules in rulesets().items():
        print(f"{name}: {rules.title}")
        for scenario, path in rules.scenarios().items():
            loaded = rules.load_scenario(path)
            seats = ", ".join(f"{s.id} ({s.side})" if s.side != s.id else s.id
                              for s in rules.seats(loaded, options_of(rules)))
            print(f"  scenario {scenario} ({path.name}): {loaded.name}; seats: {seats}")
        for option in rules.options():
            print(f"  option {option.name}: {' | '.join(option.choices)} (default {option.default})"
                  f"{': ' + option.help if option.help else ''}")
        print(f"  bots: {', '.join(rules.bots())}")
    return 0


def cmd_map_check(args) -> int:
    from pbem.games import ruleset

    check = ruleset(args.game).check_map
    status = 0
    for path in args.files:
        problems = check(path)
        if problems:
            status = 1
            print(f"{path}: {len(problems)} problem(s)")
            for p in problems:
                print(f"  - {p}")
        else:
            print(f"{path}: ok")
    return status


def case_game(path: str):
    """The ruleset of a case file: its ``game`` key, else the folder it is in (tests/cases/<game>/)."""
    import tomllib
    from pathlib import Path

    from pbem.games import UnknownGame, ruleset, rulesets

    try:
        name = tomllib.loads(Path(path).read_text(encoding="utf-8")).get("game")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    name = name or Path(path).parent.name
    if name not in rulesets():
        names = " or ".join(f'"{n}"' for n in rulesets())
        raise UnknownGame(f"{path}: say which game the case is for (game = {names}), "
                          f"or keep it in tests/cases/<game>/")
    return ruleset(name)


def cmd_adjudicate(args) -> int:
    failed = 0
    for path in args.files:
        try:
            rules = case_game(path)
            outcome = rules.run_case(path)
        except (ValueError, LookupError) as exc:
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
            print(rules.show_case(outcome))
            print()
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_coverage(args) -> int:
    from pbem.tools import coverage

    games = args.games or list(coverage.GAMES)
    if args.check:
        stale = coverage.stale(games)
        for game in stale:
            print(f"docs/rules-coverage/{game}.md is not what the cases give now: run pbem coverage {game}")
        return 1 if stale else 0
    for path in coverage.write(games):
        cov = coverage.coverage(path.stem)
        with_rule = [s for s in cov.sections if s.has_rule]
        print(f"{path.relative_to(coverage.ROOT)}: {len(with_rule) - len(cov.gaps)} of {len(with_rule)} "
              f"sections with a rule pinned by a case")
    return 0


def cmd_selfplay(args) -> int:
    from pbem.tools.selfplay import play_many, play_volume

    if args.scenario == "all" or args.replay:  # every scenario (or the one named) in turn, each game replayed
        from pbem.games import ruleset

        rules = ruleset(args.game)
        args.options = game_options_of(rules, getattr(args, "option", None))
        names = list(rules.scenarios()) if args.scenario in (None, "all") else [args.scenario]
        scenarios = {name: game_of(argparse.Namespace(**{**vars(args), "scenario": name}))[1] for name in names}
        volume = play_volume(rules, scenarios, args.seed, args.games, replay=args.replay,
                             random_decisions=not args.default_decisions, options=args.options,
                             on_game=lambda name, seed, game, v: print(
                                 f"{name} seed {seed}: " + (f"{len(game.days)} turns, winner {game.view(None)['winner']}"
                                                            if game is not None else "FAILED"), flush=True))
        print("\n".join(volume.lines()))
        return 1 if volume.problems else 0
    rules, scenario = game_of(args)
    tally = play_many(rules, scenario, args.seed, args.games, random_decisions=not args.default_decisions,
                      options=args.options)
    print(tally)
    return 1 if tally.problems else 0


def cmd_balance(args) -> int:
    from pbem.tools.balance import balance

    rules, scenario = game_of(args)
    players = {}
    for item in args.seat or []:
        seat, _, bot = item.partition("=")
        if bot not in rules.bots() or seat not in [s.id for s in rules.seats(scenario, {})]:
            print(f"pbem balance: --seat {item}: write SEAT=BOT, with a seat of {rules.title} and one of its "
                  f"bots ({', '.join(rules.bots())})", file=sys.stderr)
            return 2
        players[seat] = bot
    tally = balance(rules, scenario, args.seed, args.games, players, options=args.options)
    print("\n".join(tally.lines()))
    return 1 if tally.problems else 0


def cmd_bench(args) -> int:
    from pbem.games import rulesets
    from pbem.tools.bench import bench, draw_bench

    if args.page:
        from pbem.tools.pages import page_bench

        page_bench(args.seconds, args.clients, args.rounds)
        return 0

    names = list(rulesets()) if args.all else [args.game]
    for name in names:
        args.game = name
        ruleset, scenario = game_of(args) if not args.all else game_of_first(name)
        options = getattr(args, "options", {}) if not args.all else {}
        if args.all:
            print(f"{name} ({ruleset.title}):")
        lines = draw_bench(ruleset, scenario, args.seed) if args.draw else bench(
            ruleset, scenario, args.seed, args.games, args.repeat, options)
        for line in lines:
            print(("  " if args.all else "") + line)
    return 0


def cmd_mailbench(args) -> int:
    from pbem.games import rulesets
    from pbem.tools.mailbench import GAMES, mailbench

    names = args.game or [name for name in GAMES if name in rulesets()]
    unknown = [name for name in names if name not in rulesets()]
    if unknown:
        print(f"pbem mailbench: no game called {', '.join(unknown)} (pbem games lists them)", file=sys.stderr)
        return 2
    mailbench(args.mails, args.games, names, args.clients, args.profile, args.serve or args.smtp_process, args.workdir,
              smtp_process=args.smtp_process)
    return 0


def game_of_first(name: str):
    """A game's ruleset and its first scenario, loaded."""
    from pbem.games import ruleset

    rules = ruleset(name)
    return rules, rules.load_scenario(next(iter(rules.scenarios().values())))


def cmd_serve(args) -> int:
    import os
    import signal
    import threading

    import logging

    from pbem.server.config import load_config, misspelled_environment
    from pbem.server.serve import PortInUse, Server, more_descriptors

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "task queue depth" under load: not news
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # the SMTP receiver's every command: not news
    config = load_config(args.config)
    for warning in misspelled_environment():
        print(f"pbem serve: {warning}", file=sys.stderr, flush=True)
    from pbem.server.running import ServerRunning, Serving

    serving = Serving(config.database_path)  # held while this process runs: pbem restore refuses meanwhile
    try:
        serving.claim()
    except ServerRunning as exc:
        print(f"pbem serve: {exc}: stop it first, or give this one another database (the instance setting)",
              file=sys.stderr)
        return 1
    more_descriptors()
    server = Server(config)
    try:
        server.start()
    except PortInUse as exc:
        server.stop()
        print(f"pbem serve: {exc}", file=sys.stderr)
        return 1
    listening = f"http://{server.config.web_host}:{server.config.web_port}"
    print(f"pbem is running: {config.url}" + (f" (the web listens on {listening})" if listening != config.url
                                              else ""), flush=True)
    print(f"data: {config.database_path}", flush=True)
    from pbem.server.doors import described

    for name, is_open, where in described(config):
        if name == "SMTP" and server.smtp_port:
            where = f"{config.smtp_host}:{server.smtp_port}, the built-in receiver"
            if server.receiver:
                where += f" (a process of its own, pid {server.receiver.proc.pid})"
        print(f"mail in by {name}: {where}", flush=True)
    relay = f"relay {config.relay_host}:{config.relay_port}" + (" (STARTTLS)" if config.relay_starttls else "")
    print(f"mail out: {relay if config.relay else 'local maildir ' + str(config.maildir)}", flush=True)
    admin = server.store.find_player(config.admin_email)
    if admin is None or not admin.get("password_hash"):  # until the admin has a password of his own
        from pbem.server.web import admin_login_url

        print(f"sign in as {config.admin_email}: {admin_login_url(server.service, config)}", flush=True)
    else:
        print(f"sign in as {config.admin_email} with your password (pbem login-link prints a one-time link)", flush=True)
    stop = threading.Event()
    asked = []
    signal.signal(signal.SIGTERM, lambda *_: (asked.append("SIGTERM"), stop.set()))
    dead = None
    try:
        dead = server.watch(stop)  # until SIGTERM, or a part of the server dies
    except KeyboardInterrupt:
        asked.append("Ctrl-C")
    if dead:
        logging.getLogger("pbem").error("%s has ended: the server stops, to be started again (exit status 1)", dead)
    else:
        print(f"pbem is stopping ({asked[0] if asked else 'asked to'}): what is under way is finished, or done "
              "again at the next start", flush=True)
    stuck = server.stop_within(config.stop_seconds)
    if stuck:
        logging.getLogger("pbem").error("the server did not stop within %s s (threads still running: %s): it exits "
                                        "now; what they were doing is done again at the next start",
                                        config.stop_seconds, ", ".join(stuck))
        logging.shutdown()
        os._exit(1)
    print(f"pbem has stopped (data: {config.database_path})", flush=True)
    return 1 if dead else 0


def cmd_login_link(args) -> int:
    from pbem.server.config import load_config
    from pbem.server.service import Service
    from pbem.server.store import Store
    from pbem.server.web import admin_login_url

    config = load_config(args.config)
    if not config.database_path.is_file():  # never a new, empty database for a server that is not there
        print(f"pbem login-link: there is no database at {config.database_path} (check the config file's "
              "instance or database setting, or --config; `pbem serve` makes it)", file=sys.stderr)
        return 1
    if args.email:
        config.admin_email = args.email
    print(admin_login_url(Service(Store(config.database_path), config), config))
    return 0


def cmd_mail_in(args) -> int:
    """Read one message on standard input (a mail server's pipe) and store it."""
    from pbem.server import inbox
    from pbem.server.config import load_config
    from pbem.server.service import Service
    from pbem.server.store import Store

    raw = sys.stdin.buffer.read()
    if not raw.strip():
        print("pbem mail-in: no message on standard input; nothing was stored", file=sys.stderr)
        return 65  # EX_DATAERR: the mail server bounces it rather than retrying
    try:
        config = load_config(args.config)
        service = Service(Store(config.database_path), config)
        inbound_id, duplicate = inbox.receive(service, raw, "pipe")
        if args.process:
            inbox.process(service, inbound_id)
    except Exception as exc:  # the mail server keeps the message and tries again
        print(f"pbem mail-in: could not store the message: {exc}", file=sys.stderr)
        return 75  # EX_TEMPFAIL
    print(f"stored as message {inbound_id}" + (" (a duplicate)" if duplicate else ""))
    return 0


def cmd_backup(args) -> int:
    from pbem.server.backup import BackupError, backup
    from pbem.server.config import load_config

    config = load_config(args.config)
    try:
        pages = backup(config.database_path, args.dest)
    except BackupError as exc:
        print(f"pbem backup: {exc}", file=sys.stderr)
        return 1
    size = os.path.getsize(args.dest) / (1024 * 1024)
    print(f"wrote {args.dest}: a consistent copy of {config.database_path} (one SQLite file, {pages} pages, "
          f"{size:.1f} MiB), taken while the server may run; pbem restore {args.dest} puts it back")
    return 0


def cmd_prune(args) -> int:
    from pbem.server import retention
    from pbem.server.config import load_config
    from pbem.server.mapcache import MapCache
    from pbem.server.store import Store

    config = load_config(args.config)
    store = Store(config.database_path)
    before = config.database_path.stat().st_size
    done = retention.prune(store, config, maps=MapCache(Path(config.instance) / "mapcache"))
    print(f"pruned {done}")
    if args.vacuum:
        retention.vacuum(store)
        print(f"vacuumed: {before / 1e6:.1f} MB -> {config.database_path.stat().st_size / 1e6:.1f} MB")
    store.close()
    return 0


def cmd_ratings(args) -> int:
    from pbem.server.config import load_config
    from pbem.server.leagues import ratings
    from pbem.server.service import Service
    from pbem.server.store import Store

    config = load_config(args.config)
    service = Service(Store(config.database_path), config)
    counts = ratings.recompute(service, full=True)  # every game again: the stored history is not trusted here
    print(", ".join(f"{name}: {n} games rated" for name, n in sorted(counts.items())) or "no finished game to rate")
    for row in ratings.table(service.store, args.game):
        print(f"{row['game']:10} {row['rating']:8.2f}  mu {row['mu']:6.2f} sigma {row['sigma']:5.2f}"
              f"  {row['games']:3} games  {row['email']}")
    return 0


def cmd_store_parses(args) -> int:
    from pbem.server.config import load_config
    from pbem.server.service import Service
    from pbem.server.store import Store
    from pbem.tools.storeparses import store_parses

    config = load_config(args.config)
    service = Service(Store(config.database_path), config)
    for line in store_parses(service).lines():
        print(line)
    service.store.close()
    return 0


def cmd_restore(args) -> int:
    from pbem.server.backup import RestoreError, restore
    from pbem.server.config import load_config

    from pbem.server.running import server_pid, stop_server

    config = load_config(args.config)
    pid = server_pid(config.database_path)
    if pid is not None and not args.stop:
        print(f"pbem restore: a pbem server (process {pid if pid > 0 else 'unknown'}) is running on "
              f"{config.database_path}: stop it first (systemctl stop pbem), or give --stop to have restore stop it; "
              f"nothing was restored", file=sys.stderr)
        return 1
    if pid is not None:
        print(f"stopping the pbem server (process {pid}) ...", flush=True)
        if not stop_server(config.database_path):
            print(f"pbem restore: the server (process {pid}) did not stop within a minute; nothing was restored",
                  file=sys.stderr)
            return 1
    try:
        restore(args.source, config.database_path)
    except RestoreError as exc:
        print(f"pbem restore: {exc}", file=sys.stderr)
        return 1
    print(f"restored {args.source} to {config.database_path}")
    if pid is not None:
        print("the server was stopped for it and is still stopped: start it again (systemctl start pbem)")
    return 0


def cmd_demo(args) -> int:
    from pbem.tools.demo import run_demo

    from pbem.games import ruleset

    summary = run_demo(args.out, seed=args.seed, game=args.game, scenario=args.scenario,
                       day_seconds=args.day_seconds, timeout=args.timeout,
                       options=game_options_of(ruleset(args.game), args.option))
    print(summary)
    print(f"every mail is in {args.out}")
    return 1 if summary.problems else 0


def cmd_loadtest(args) -> int:
    from pathlib import Path

    from pbem.tools.loadtest import LoadSettings, run_loadtest

    if args.scale:
        from pbem.tools.scale import scale_run

        text = scale_run(args.scale, args.due, args.game, args.scenario, args.workdir, window=args.window,
                         drain=3600.0 if args.drain is None else args.drain, tick=args.tick)
        print(text)
        if args.out:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        return 0
    if args.resolution:
        from pbem.tools.loadtest import resolution_figures

        text = resolution_figures(args.resolution, args.game, args.scenario, args.workdir)
        print(text)
        if args.out:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        return 0
    if args.limits_only:
        from pbem.tools import limits

        text = str(limits.measure(args.workdir, clients=args.clients, game=args.game, scenario=args.scenario))
        print(text)
        if args.out:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        return 0
    settings = LoadSettings(games=args.games, seconds=args.seconds, rate=args.rate, due_rate=args.due_rate,
                            clients=args.clients, tick=args.tick, game=args.game, scenario=args.scenario,
                            workdir=args.workdir,
                            warmup=not args.no_warmup, drain=180.0 if args.drain is None else args.drain,
                            limits=args.limits, smtp_process=args.smtp_process)
    figures = run_loadtest(settings)
    text = str(figures)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 1 if figures.lost or figures.doubled else 0


def cmd_attack(args) -> int:
    """Exit status 1 when the server did not keep its promise (docs/security.md)."""
    from pbem.tools import attack

    if args.what == "deadlock":
        said = attack.deadlock(args.workdir, seconds=args.minutes * 60, threads=args.threads,
                               server_code=args.server_code)
        print(said)
        return 1 if said.stuck or said.exit_code != 0 else 0
    said = attack.connections(args.workdir, idle=args.idle, slow=args.slow, slow_seconds=args.slow_seconds,
                              server_code=args.server_code)
    print(said)
    return 0 if said.alive and said.web.endswith(" 200 OK") and said.web_after.endswith(" 200 OK") else 1


def cmd_measure(args) -> int:
    if args.what == "seed-search":
        from pbem.tools import seedsearch

        print(seedsearch.report(args.seconds))
        return 0
    from pbem.tools import measure

    if args.what == "hostile-mail":
        print(measure.hostile_mail(mails=args.mails, parts=args.parts, workdir=args.workdir,
                                   server_code=args.server_code))
    elif args.what == "memory":
        measure.memory(games=args.games, cache=args.cache, seed=args.seed, say=lambda line: print(line, flush=True))
    else:
        print(measure.footprint(scenario=args.scenario, seed=args.seed, workdir=args.workdir))
    return 0


def cmd_render(args) -> int:
    from pathlib import Path

    from pbem.render import render_png

    side = None if args.side in ("moderator", "all") else args.side
    if args.case:
        try:
            rules = case_game(args.case)
            outcome = rules.run_case(args.case)
        except (ValueError, LookupError) as exc:
            print(f"pbem render: {exc}", file=sys.stderr)
            return 1
        scenario, title = outcome.scenario, outcome.title
        seen = rules.view(scenario, outcome.state, side)
    else:
        from pbem.tools.selfplay import play_days

        rules, scenario = game_of(args)
        game = play_days(rules, scenario, args.seed, args.days, args.options)
        seen = game.view(side)
        title = f"{scenario.name} (self-play, seed {args.seed})"
    svg = rules.render_svg(scenario, seen, title=title)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".svg").write_text(svg, encoding="utf-8")
    out.with_suffix(".png").write_bytes(render_png(svg))
    print(f"wrote {out.with_suffix('.svg')} and {out.with_suffix('.png')}")
    return 0


def cmd_verify(args) -> int:
    import hashlib
    import json
    from pathlib import Path

    from pbem.core.verify import verify
    from pbem.games import ruleset
    from pbem.paths import MAPS

    try:
        export = json.loads(Path(args.file).read_text(encoding="utf-8"))
        rules = ruleset(export["ruleset"])
        path = Path(args.scenario) if args.scenario else MAPS / export["scenario"]
        scenario = rules.load_scenario(path)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except (OSError, ValueError, KeyError, LookupError) as exc:
        print(f"pbem verify: {args.file}: cannot read the export: {exc}", file=sys.stderr)
        return 2
    problems = verify(export, rules, scenario, digest)
    if problems:
        print(f"{args.file}: does NOT verify ({len(problems)} difference(s)):")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print(f"{args.file}: verified: the seed matches its commitment, and replaying the log gives every "
          f"recorded day ({len(export['days'])}), roll and position")
    return 0


def cmd_export(args) -> int:
    import json

    from pbem.server.config import load_config
    from pbem.server.service import Service, ServiceError
    from pbem.server.store import Store

    config = load_config(args.config)
    try:
        export = Service(Store(config.database_path), config).export(args.game_id)
    except ServiceError as exc:
        print(f"pbem export: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(export, indent=1, sort_keys=True)
    if args.out:
        from pathlib import Path

        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def commands_markdown() -> str:
    """docs/commands.md: every command and option, as the parser knows them (a test keeps them equal)."""
    out = ["# Every command and option", "",
           "`pbem --help` and `pbem COMMAND --help` say the same; README.md shows the commands at a glance.",
           "This page is written by `pbem.cli.commands_markdown()`; tests/test_docs.py keeps it equal.", ""]

    def walk(parser, name):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs:
            for sub_name, sub in subs[0].choices.items():
                walk(sub, f"{name} {sub_name}")
            return
        out.extend([f"## `{name}`", ""])
        if parser.description:
            out.extend([parser.description, ""])
        rows = []
        for a in parser._actions:
            if "--help" in a.option_strings:
                continue
            what = ", ".join(a.option_strings) or a.dest.upper()
            if a.metavar and a.option_strings:
                what += f" {a.metavar}"
            default = "" if a.default in (None, False) or not a.option_strings else f" (default: {a.default})"
            rows.append(f"| `{what}` | {(a.help or '').replace('|', '/')}{default} |")
        if rows:
            out.extend(["| argument | meaning |", "|---|---|", *rows, ""])

    walk(build_parser(), "pbem")
    return "\n".join(out).rstrip() + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def game_arg(p, options: bool = True):
        p.add_argument("--game", default="marengo", help="the game (pbem games lists them)")
        if options:
            p.add_argument("--option", action="append", metavar="NAME=VALUE",
                           help="one of the game's options (pbem games lists them), e.g. players=3")

    p_games = sub.add_parser("games", help="list the installed games, their scenarios, seats, options and bots")
    p_games.set_defaults(func=cmd_games)

    p_verify = sub.add_parser("verify", help="replay a finished game's export and check every day, roll and result")
    p_verify.add_argument("file", help="the export (JSON), from the game's page or pbem export")
    p_verify.add_argument("--scenario", help="the scenario file, if not the one under maps/ the export names")
    p_verify.set_defaults(func=cmd_verify)

    p_export = sub.add_parser("export", help="write a finished game's export (JSON) for pbem verify")
    p_export.add_argument("game_id", type=int, help="the game's number")
    p_export.add_argument("--out", help="a file (default: standard output)")
    p_export.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, else the embedded defaults")
    p_export.set_defaults(func=cmd_export)

    p_map = sub.add_parser("map", help="work with map files")
    map_sub = p_map.add_subparsers(dest="map_command", required=True)
    p_check = map_sub.add_parser("check", help="validate map files and list every problem")
    p_check.add_argument("files", nargs="+", help="map files (TOML, docs/maps.md)")
    game_arg(p_check, options=False)
    p_check.set_defaults(func=cmd_map_check)

    p_adj = sub.add_parser("adjudicate", help="run adjudication case files (docs/cases.md)")
    p_adj.add_argument("files", nargs="+", help="case files (TOML, docs/cases.md)")
    p_adj.add_argument("--show", action="store_true", help="print the position after each case")
    p_adj.set_defaults(func=cmd_adjudicate)

    p_cov = sub.add_parser("coverage", help="write docs/rules-coverage/<game>.md: the cases that pin each section of the rule book")
    p_cov.add_argument("games", nargs="*", help="the games (default: all four)")
    p_cov.add_argument("--check", action="store_true", help="write nothing; exit 1 if a table is not what the cases give")
    p_cov.set_defaults(func=cmd_coverage)

    p_serve = sub.add_parser("serve", help="run the server: web, scheduler, SMTP receiver and outbox")
    p_serve.add_argument("--config", help="a TOML settings file (docs/operations.md)")
    p_serve.set_defaults(func=cmd_serve)

    p_link = sub.add_parser("login-link", help="print a one-time sign-in link (30 minutes), for the admin by default")
    p_link.add_argument("email", nargs="?", help="whose link (default: the admin_email setting)")
    p_link.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, else the embedded defaults")
    p_link.set_defaults(func=cmd_login_link)

    p_in = sub.add_parser("mail-in", help="store one message read on standard input (a mail server pipe)")
    p_in.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, else the embedded defaults")
    p_in.add_argument("--process", action="store_true", help="also process it now, not at the next tick")
    p_in.set_defaults(func=cmd_mail_in)

    p_backup = sub.add_parser("backup", help="a consistent copy of the database, taken while the server runs")
    p_backup.add_argument("dest", help="the copy to write")
    p_backup.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, else the embedded defaults")
    p_backup.set_defaults(func=cmd_backup)

    p_prune = sub.add_parser("prune", help="delete old mail as the retention settings say (docs/security.md)")
    p_prune.add_argument("--config")
    p_prune.add_argument("--vacuum", action="store_true", help="also give the space back to the file system")
    p_prune.set_defaults(func=cmd_prune)

    p_ratings = sub.add_parser("ratings", help="rate every finished game again (OpenSkill) and print the ratings")
    p_ratings.add_argument("--game", help="print only this game's ratings")
    p_ratings.add_argument("--config")
    p_ratings.set_defaults(func=cmd_ratings)

    p_reparse = sub.add_parser("store-parses", help="after an upgrade: store again every running game's stale "
                                                    "orders parses (docs/operations.md)")
    p_reparse.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, "
                                            "else the embedded defaults")
    p_reparse.set_defaults(func=cmd_store_parses)

    p_restore = sub.add_parser("restore", help="put a backup in place of the database (refused while the server runs)")
    p_restore.add_argument("source", help="a copy made by pbem backup")
    p_restore.add_argument("--stop", action="store_true",
                           help="stop the running server first (SIGTERM, as systemd does) and leave it stopped")
    p_restore.add_argument("--config", help="the settings file (docs/operations.md); default: $PBEM_CONFIG, else the embedded defaults")
    p_restore.set_defaults(func=cmd_restore)

    p_demo = sub.add_parser("demo", help="play a whole game by mail through the real server, between two bots")
    p_demo.add_argument("--out", required=True, help="folder for every mail sent (.eml) and its maps")
    p_demo.add_argument("--seed", type=int, default=1, help="the first game\'s seed (then seed+1, ...)")
    game_arg(p_demo)
    p_demo.add_argument("--scenario", help="a scenario of the game, a file under maps/, or a path")
    p_demo.add_argument("--day-seconds", type=float, default=10.0,
                        help="the compressed deadline of each day (the bots answer at once, with FINAL)")
    p_demo.add_argument("--timeout", type=float, default=900.0, help="seconds before the demo gives up")
    p_demo.set_defaults(func=cmd_demo)

    p_load = sub.add_parser("loadtest", help="drive the real server on loopback with order mails and due games;"
                                               " print the figures (docs/performance.md)")
    p_load.add_argument("--games", type=int, default=1000, help="active games")
    p_load.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    p_load.add_argument("--rate", type=float, default=50.0, help="order mails a second")
    p_load.add_argument("--due-rate", type=float, default=1.0, help="games coming due a second")
    p_load.add_argument("--clients", type=int, default=4,
                        help="SMTP connections of the load generator's client process")
    p_load.add_argument("--tick", type=float, default=0.5, help="the server's tick_seconds")
    game_arg(p_load, options=False)
    p_load.add_argument("--scenario", help="a scenario of the game (default: its first)")
    p_load.add_argument("--workdir", help="keep the games (made once) and the run here; default: a temporary folder")
    p_load.add_argument("--no-warmup", action="store_true", help="measure from cold: no first mail per seat before")
    p_load.add_argument("--drain", type=float, default=None,
                        help="most seconds to wait for late mail (default 180; with --scale, for the reports: 3600)")
    p_load.add_argument("--out", help="also write the figures to this file")
    p_load.add_argument("--limits", action="store_true",
                        help="also measure, in the same run, the bare receiver, SQLite's commit rate and one raw "
                             "map render, and print each figure's ratio to its limit")
    p_load.add_argument("--limits-only", action="store_true", help="measure and print the limits only, no load run")
    p_load.add_argument("--smtp-process", action="store_true",
                        help="the server with the setting smtp_process: its SMTP receiver in a process of its own")
    p_load.add_argument("--resolution", type=int, metavar="N", default=0,
                        help="no load run: resolve N games due at once, in batches and one a transaction, beside "
                             "the engine's time and one commit")
    p_load.add_argument("--scale", type=int, metavar="N", default=0,
                        help="no load run: N active games (copies of one), --due of them due in the same minute; "
                             "prints the time until the last of their reports is delivered, beside the drawing limit")
    p_load.add_argument("--due", type=int, default=1000, help="with --scale: games due in the same minute")
    p_load.add_argument("--window", type=float, default=60.0, help="with --scale: the seconds their deadlines spread over")
    p_load.set_defaults(func=cmd_loadtest)

    p_measure = sub.add_parser("measure", help="hardening figures: the site's response during hostile mail, "
                                                "a finished game's database size before and after retention, "
                                                "resident memory with many active games, what a search for "
                                                "a game's seed would cost")
    p_measure.add_argument("what", choices=("hostile-mail", "footprint", "memory", "seed-search"))
    p_measure.add_argument("--seconds", type=float, default=0.5,
                           help="seed-search: how long each dice version's derivation is timed")
    p_measure.add_argument("--games", type=int, default=10_000, help="memory: active games coming due")
    p_measure.add_argument("--cache", type=int, help="memory: games kept replayed (default: the server's)")
    p_measure.add_argument("--mails", type=int, default=10, help="hostile mails sent (hostile-mail)")
    p_measure.add_argument("--parts", type=int, default=45_000, help="empty MIME parts in each (hostile-mail)")
    p_measure.add_argument("--server-code", help="run the server from this checkout (e.g. the code before a fix)")
    p_measure.add_argument("--scenario", default="marengo.toml", help="footprint: the scenario played")
    p_measure.add_argument("--seed", type=int, default=1)
    p_measure.add_argument("--workdir", help="keep the files here (default: a temporary folder, removed)")
    p_measure.set_defaults(func=cmd_measure)

    p_attack = sub.add_parser("attack", help="issue 28's attacks on a real server on 127.0.0.1: creations and joins "
                                             "against a ticking clock (deadlock), idle and slow connections "
                                             "(connections); figures printed (docs/security.md)")
    p_attack.add_argument("what", choices=("deadlock", "connections"))
    p_attack.add_argument("--minutes", type=float, default=10.0, help="deadlock: how long to attack")
    p_attack.add_argument("--threads", type=int, default=4, help="deadlock: clients creating and joining games")
    p_attack.add_argument("--idle", type=int, default=1000, help="connections: idle connections to the SMTP port")
    p_attack.add_argument("--slow", type=int, default=150, help="connections: HTTP clients sending headers slowly")
    p_attack.add_argument("--slow-seconds", type=float, default=45.0,
                          help="connections: how long the slow clients keep sending")
    p_attack.add_argument("--server-code", help="run the server from this checkout (e.g. the code before a fix)")
    p_attack.add_argument("--workdir", help="keep the files here (default: a temporary folder)")
    p_attack.set_defaults(func=cmd_attack)

    p_render = sub.add_parser("render", help="draw a side's view of a self-play game or a case file (SVG and PNG)")
    p_render.add_argument("--case", help="an adjudication case file: draw the position after it")
    game_arg(p_render)
    p_render.add_argument("--scenario", help="a scenario of the game, a file under maps/, or a path")
    p_render.add_argument("--seed", type=int, default=1, help="the first game\'s seed (then seed+1, ...)")
    p_render.add_argument("--days", type=int, default=0, help="days of bot play before drawing")
    p_render.add_argument("--side", default="moderator", help="a seat of the game (austria, france, ...) or moderator")
    p_render.add_argument("--out", required=True, help="file name without extension: writes .svg and .png")
    p_render.set_defaults(func=cmd_render)

    p_self = sub.add_parser("selfplay", help="bot against bot: N complete games, every invariant checked")
    game_arg(p_self)
    p_self.add_argument("--scenario", help="a scenario of the game, a file under maps/, or a path")
    p_self.add_argument("--seed", type=int, default=1, help="the first game\'s seed (then seed+1, ...)")
    p_self.add_argument("--games", type=int, default=1, help="how many games")
    p_self.add_argument("--default-decisions", action="store_true",
                        help="answer open decisions by their defaults, not at random")
    p_self.add_argument("--replay", action="store_true",
                        help="replay each game from its log and check it reaches the same digest every day; "
                             "with --scenario all, the game's scenarios in turn")
    p_self.set_defaults(func=cmd_selfplay)

    p_bal = sub.add_parser("balance", help="is the map fair? N games between the game's bots: "
                                          "wins, how won, and what the game counts")
    game_arg(p_bal)
    p_bal.add_argument("--scenario", help="a scenario of the game, a file under maps/, or a path")
    p_bal.add_argument("--seed", type=int, default=1, help="the first game\'s seed (then seed+1, ...)")
    p_bal.add_argument("--games", type=int, default=100, help="how many games")
    p_bal.add_argument("--seat", action="append", metavar="SEAT=BOT",
                       help="the bot that plays a seat (default: the game's strongest), e.g. austria=bot")
    p_bal.set_defaults(func=cmd_balance)

    p_bench = sub.add_parser("bench", help="print speed figures: self-play games a second, replay time")
    game_arg(p_bench)
    p_bench.add_argument("--scenario", help="a scenario of the game, a file under maps/, or a path")
    p_bench.add_argument("--seed", type=int, default=1, help="the first game\'s seed (then seed+1, ...)")
    p_bench.add_argument("--games", type=int, default=50, help="how many games")
    p_bench.add_argument("--repeat", type=int, default=3, help="replays timed per game (the best counts)")
    p_bench.add_argument("--all", action="store_true", help="every installed game, each on its first scenario")
    p_bench.add_argument("--draw", action="store_true",
                         help="drawing figures instead: ms a map against a raw render, maps a second on every core")
    p_bench.add_argument("--page", action="store_true",
                         help="the game page instead: answers a second against waitress serving a static file of "
                              "its size, the two in turn in each round of the same run, the median ratio and its "
                              "spread, the server's CPU an answer, and the same page of Flask alone (without the "
                              "front); then its map, click data, and 304s, with the connections they took")
    p_bench.add_argument("--seconds", type=float, default=4.0, help="--page: each measurement's length")
    p_bench.add_argument("--clients", type=int, default=8, help="--page: connections at once")
    p_bench.add_argument("--rounds", type=int, default=5, help="--page: rounds of the static file and the page")
    p_bench.set_defaults(func=cmd_bench)

    p_mb = sub.add_parser("mailbench", help="the server's CPU per order mail, stage by stage (receive, process, "
                                            "send), against the bare receiver measured in the same run")
    p_mb.add_argument("--mails", type=int, default=1000, help="how many orders mails")
    p_mb.add_argument("--games", type=int, default=2, help="games of each ruleset the mails are spread over")
    p_mb.add_argument("--game", action="append", help="a ruleset to send orders for (repeatable; default: every one)")
    p_mb.add_argument("--clients", type=int, default=4, help="SMTP connections sending at once")
    p_mb.add_argument("--profile", action="store_true", help="print a cProfile of each stage")
    p_mb.add_argument("--serve", action="store_true", help="then the same mails through a real pbem serve")
    p_mb.add_argument("--smtp-process", action="store_true",
                      help="--serve with the setting smtp_process: the receiver in a process of its own")
    p_mb.add_argument("--workdir", help="where the bench's databases are made (default: a temporary folder)")
    p_mb.set_defaults(func=cmd_mailbench)

    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from pbem.server.config import ConfigError

    try:
        return args.func(args)
    except ConfigError as exc:  # the settings file or environment: one line, never a traceback
        print(f"pbem {args.command}: {exc}", file=sys.stderr)
        return 2
    except LookupError as exc:  # an unknown game
        print(f"pbem {args.command}: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
