"""The ruleset interface: what a game package gives the server, and nothing more.

Every game lives in one package under ``pbem/games/<name>/`` whose
``RULESET`` attribute is an object with the members of :class:`Ruleset`. The
server, the tools and the command line find a game's ruleset by the name kept
in the game's row (:func:`pbem.games.ruleset`) and reach the game only through
these members; they never import a game package (an import contract in the
tests enforces it, see docs/architecture.md).

The members, in the order a game meets them:

- identity: ``name`` (the package's name, kept in the database) and ``title``;
- data: ``scenarios()`` names the scenario files the game ships,
  ``load_scenario`` reads one, ``check_map`` lists what is wrong with a map;
- ``options()``: the choices made when a game is created (three players,
  battle mode), each with its values and default, stored with the game;
- ``seats(scenario, options)``: the chairs players sit in, each playing for a
  side; a side may have several seats;
- ``setup(scenario, options, chance)``: the position before the first turn;
  every random draw comes from ``chance`` (named streams of the game's seed);
- ``turn(scenario, state)``: who owes orders now, and the turn's name;
- ``check_orders`` checks one seat's orders text as it arrives (the same errors
  by mail and on the web), ``parse_orders`` reads logged orders again for a
  replay; ``resolve`` plays a turn with every seat's orders, asking the
  decider for every choice the rules give a player and ``chance`` for every
  die; ``is_over``;
- ``view(scenario, state, seat)``: what a seat may see (``None``: the
  moderator; :data:`SPECTATOR`: onlookers, who see only what every seat sees
  until the game is over); ``digest``;
- what a player reads: ``report`` (a turn's report), ``orders_template``
  (the form for the next orders), ``status_lines`` (the STATUS mail),
  ``render_svg`` (the map), ``map_clicks`` (how clicks on that map write
  order lines on the game page) and ``mail_words`` (the words that begin an orders
  text, to find it in a mail);
- ``ask_kinds``: the decisions a player may ask to be asked by mail;
- the reader's language: ``report``, ``orders_template``, ``status_lines``,
  ``render_svg``, ``check_orders`` and ``turn_label`` take ``lang`` (keyword
  only, ``"en"`` by default; ``fr``, ``ru``, ``uk``, ``zh`` too), the language
  their words are written in; an unknown code reads as English; the game's
  title, its scenarios' names, its options (titles, help, the words of their
  choices), its "ask me" decisions and its computer players' descriptions are
  English catalog entries the server reads in the reader's language through the
  optional ``tongue(lang)`` (:func:`title_in`, :func:`scenario_title_in`,
  :func:`options_in`, :func:`words_of`);
- tools: ``bots()`` (players for self-play, demos and "play against the
  computer"), ``check_turn`` (the invariants self-play checks after every
  turn), ``summary`` (a finished game, for balance runs), ``run_case`` /
  ``show_case`` (adjudication cases).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

from .chance import Chance
from .decisions import Decider
from .events import Event
from pbem.lang import ENGLISH, Text, Tongue

SPECTATOR = "*spectator*"
"""The ``seat`` of a finished game's onlookers in :meth:`Ruleset.view`: everything, no orders."""


@dataclass(frozen=True)
class Seat:
    """A player's chair: ``id`` (as in orders headers and URLs), the ``side`` it plays for, its ``title``
    (English, an entry of the game's catalog); ``said``: the title as a :class:`pbem.lang.Text` where it is
    made of several (a kriegsspiel seat: the commander, his command, his army), read by :func:`seat_title_in`."""

    id: str
    side: str
    title: str
    said: Text | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Option:
    """A choice made when a game is created, shown on its page. ``title`` and ``help`` are the game's
    catalog entries (English); a choice is shown as its own word, read in the reader's language through
    the game's catalog, unless ``labels`` gives it other words (a :class:`pbem.lang.Text`: "france-%(steps)s")
    as ``(choice, words)`` pairs (:func:`option_in`)."""

    name: str
    title: str
    choices: tuple[str, ...]
    default: str
    help: str = ""
    labels: tuple[tuple[str, Text | str], ...] = ()

    def label(self, choice: str) -> Text | str:
        """The words of ``choice`` (English; a catalog entry, or a Text)."""
        return dict(self.labels).get(choice, choice)


@dataclass(frozen=True)
class Turn:
    """Who owes orders now.

    ``seats``: the seats whose orders the next turn waits for (one seat in
    Bonaparte at Marengo; several for simultaneous orders). ``others``: the
    seats that may send standing orders meanwhile. ``label``: the turn's name
    ("1PM, Austrian day"), in English. ``kind``: ``"turn"``, or ``"subturn"`` for a short
    step inside a turn (a battle round, a bid), which gets the game's short
    deadline. ``said``: the name as a :class:`pbem.lang.Text`, which
    ``Game.turn_label(day, lang)`` reads in the reader's language with the ruleset's
    ``tongue(lang)`` (a game without it names its turns in English).
    """

    seats: tuple[str, ...]
    label: str
    others: tuple[str, ...] = ()
    kind: str = "turn"
    said: Text | None = field(default=None, compare=False, repr=False)


@dataclass
class Bot:
    """A computer player: ``orders(scenario, view, seed)`` writes a seat's orders for its
    turn, ``standing(scenario, view, seed)`` (optional) its standing orders on another's,
    ``chooser(game)`` (optional) answers the decisions its orders leave open."""

    name: str
    title: str
    orders: Callable[[Any, dict, int], str]
    standing: Callable[[Any, dict, int], str] | None = None
    chooser: Callable[[Any], Callable] | None = None


def options_of(rules, chosen: dict | None = None) -> dict:
    """``rules``'s options with ``chosen`` applied (each one checked), the rest at their defaults;
    raises ValueError naming an unknown option or a value it may not take."""
    known = {option.name: option for option in rules.options()}
    unknown = set(chosen or {}) - set(known)
    if unknown:
        raise ValueError(f"{rules.title} has no option {', '.join(sorted(unknown))}")
    out = {name: option.default for name, option in known.items()}
    for name, value in (chosen or {}).items():
        if value not in known[name].choices:
            raise ValueError(f"option {name} may be {', '.join(known[name].choices)}, not {value!r}")
        out[name] = value
    return out


def press_refusal(rules, scenario, state, sender: str, to: tuple[str, ...]) -> str | None:
    """Why seat ``sender`` may not send a message to the seats ``to`` now, by the game's own rules
    (None: it may). A ruleset may define the optional member ``press_rule(scenario, state, sender,
    to)`` returning that reason; a game without one lets every message go (the generic default)."""
    rule = getattr(rules, "press_rule", None)
    return rule(scenario, state, sender, tuple(to)) if rule is not None else None


def seat_moves(rules, scenario, before, after) -> dict[str, str]:
    """The seats whose players change in one resolved turn, as ``{seat: the seat whose player takes
    it}`` (a player may hold several seats: every seat he held names one of them). A ruleset may
    define the optional member ``seat_moves(scenario, before, after)`` (the positions around the
    turn) for a rule that hands a player another side, as an auction does (Napoleon 1815 §13); the
    server then moves players, keys and computer players and records it. Without it: no moves."""
    rule = getattr(rules, "seat_moves", None)
    return dict(rule(scenario, before, after) or {}) if rule is not None else {}


def words_of(rules, lang: str | None = "en") -> Tongue:
    """A game's own texts in ``lang`` (its catalog): what the server shows of a game in its reader's
    language (seat titles, its decisions' and computer players' descriptions, a turn's name). A ruleset
    may define the optional member ``tongue(lang)``; a game without one reads as it is written."""
    rule = getattr(rules, "tongue", None)
    return rule(lang) if rule is not None and lang and lang != "en" else ENGLISH


def standing_words_of(rules) -> frozenset[str]:
    """The upper-case words that begin a standing order in every language the game reads (STANDING,
    PERMANENT, ПОСТОЯННО, 常备...): the game page's standing-orders form takes the lines they begin. A ruleset
    may define the optional member ``standing_words``; without it: STANDING. An empty set: the game has no
    standing orders (its choices are asked or take their documented defaults), and the page offers no form."""
    words = getattr(rules, "standing_words", None)
    return frozenset({"STANDING"}) if words is None else frozenset(words)


def standing_example_of(rules) -> str:
    """A standing order of the game, as the page's standing-orders form shows for an example (the optional
    member ``standing_example``; empty without it)."""
    return getattr(rules, "standing_example", "") or ""


def read_in(tongue: Tongue, text: Text | str) -> str:
    """A game's text in ``tongue``'s language: a Text read there, a string as its catalog entry."""
    if isinstance(text, Text):
        return tongue.say(text)
    return tongue.gettext(text) if text else text


def title_in(rules, lang: str | None = "en") -> str:
    """The game's title in ``lang`` (its catalog's: "Bonaparte à Marengo")."""
    return read_in(words_of(rules, lang), rules.title)


class GameWords(Text):
    """A game's catalog entry (or a Text of its catalog) inside another catalog's sentence (a server's refusal
    naming the game, an answer naming a seat): read in whichever language reads the sentence, through the
    game's own catalog (``str()``: the English)."""

    def __init__(self, rules, words: str | Text):
        super().__init__(str(words))
        self.rules, self.words = rules, words

    def read_in(self, tongue: Tongue) -> str:
        return read_in(words_of(self.rules, tongue.lang), self.words)


def seat_said(rules, seat: Seat) -> Text:
    """A seat's title as a value of a sentence read later in its reader's language (:class:`GameWords`)."""
    return GameWords(rules, seat.said if seat.said is not None else seat.title)


def title_said(rules) -> Text:
    """The game's title as a value of a sentence read later in its reader's language (:class:`GameWords`)."""
    return GameWords(rules, rules.title)


def seat_title_in(rules, seat: Seat, lang: str | None = "en") -> str:
    """A seat's title in ``lang``: its Text read there, else its title as the game's catalog writes it."""
    return read_in(words_of(rules, lang), seat.said if seat.said is not None else seat.title)


def form_header(game, seat: str, label, lang: str) -> str:
    """An orders form's header in the reader's words (PARTIE 7 CAMP France, ГРА 7 СТОРОНА Франція; the core
    reads every language's) naming the seat by its title in his language, as the server reads a seat named in
    any language; English as it always was (``GAME 7 SIDE french``)."""
    from .orders import header_words

    key = header_words(lang)
    named = seat
    if key["GAME"] != "GAME":
        named = next((seat_title_in(game.ruleset, s, lang) for s in game.ruleset.seats(game.scenario, game.options)
                      if s.id == seat), seat)
    return f"{key['GAME']} {label or key['GAME']} {key['SIDE']} {named}"


def scenario_title_in(rules, scenario, lang: str | None = "en") -> str:
    """A scenario's name (``scenario.name``, English) in ``lang``, through the game's catalog."""
    return read_in(words_of(rules, lang), scenario.name)


@dataclass(frozen=True)
class OptionShown:
    """An option as a reader of one language sees it: its key, title and help in his language, its
    choices as ``(value, words)`` pairs (the value is what a form sends and a game keeps)."""

    name: str
    title: str
    choices: tuple[tuple[str, str], ...]
    default: str
    help: str = ""

    def label(self, choice: str) -> str:
        """The words of ``choice`` (a value the option does not know: as it is)."""
        return dict(self.choices).get(choice, choice)


def option_in(rules, option: Option, lang: str | None = "en") -> OptionShown:
    """``option`` of ``rules`` in ``lang``: title, help and each choice's words read in the game's catalog
    (English: as the ruleset writes them)."""
    t = words_of(rules, lang)
    return OptionShown(option.name, read_in(t, option.title),
                       tuple((c, read_in(t, option.label(c))) for c in option.choices), option.default,
                       read_in(t, option.help))


def options_in(rules, lang: str | None = "en") -> tuple[OptionShown, ...]:
    """Every option of ``rules`` in ``lang`` (:func:`option_in`)."""
    return tuple(option_in(rules, option, lang) for option in rules.options())


def victory_said(rules, scenario, view: dict) -> Text | str:
    """How a finished game was won (``view["victory"]``, the position's English words) as the rules said it, to be
    read in each language. A ruleset whose victory is no "victory" event of a day (Napoleonic DBA keeps it in its
    state) may define the optional member ``victory_said(scenario, view)``; without it: the English words."""
    rule = getattr(rules, "victory_said", None)
    return rule(scenario, view) if rule is not None else view.get("victory") or ""


def ask_kinds_in(rules, options: dict | None) -> dict:
    """The kinds of decision ``rules`` may ask a seat by mail in a game of these ``options`` (kind -> its text): all
    its ``ask_kinds``, unless the ruleset's optional member ``ask_kinds_in(options)`` keeps some back (DBA's
    kriegsspiel: a question naming enemy elements the seat has not identified is never put; its default answers)."""
    rule = getattr(rules, "ask_kinds_in", None)
    return rule(options_of(rules, options)) if rule is not None else dict(getattr(rules, "ask_kinds", {}))


def decision_in(rules, scenario, decision, lang: str = "en"):
    """An "ask me" decision with its question and its choices' labels in ``lang`` (its options,
    default and limits unchanged: an answer names an option by its key or its label). A ruleset may
    define the optional member ``decision_in(scenario, decision, *, lang)``; a game without one asks
    in the words its rules wrote."""
    rule = getattr(rules, "decision_in", None)
    return rule(scenario, decision, lang=lang) if rule is not None and lang != "en" else decision


@runtime_checkable
class Ruleset(Protocol):
    name: str
    """The package's name under pbem/games/, kept in the game's row ("marengo")."""
    title: str
    """The game's title ("Bonaparte at Marengo"), an entry of its catalog (:func:`title_in`)."""
    mail_words: frozenset[str]
    """Upper-case words that may begin a line of an orders text (GAME, MOVE, ...): a mail's
    orders begin at the first line starting with one of them."""
    ask_kinds: dict[str, str]
    """The kinds of decision a game may put to a player by mail ("ask me"), kind -> what it is (an entry of
    the game's catalog, read with :func:`words_of`)."""

    def scenarios(self) -> dict[str, Path]:
        """The scenarios the game ships: name -> scenario file (under maps/)."""

    def options(self) -> tuple[Option, ...]:
        """The options chosen when a game is created (may be empty)."""

    def load_scenario(self, path: Path) -> Any:
        """Read a scenario file (and its map); raises ValueError with every problem."""

    def check_map(self, path: Path) -> list[str]:
        """Every problem in a map file (empty when it is good)."""

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        """The seats of a game of this scenario with these options, in the order shown."""

    def setup(self, scenario, options: dict, chance: Chance) -> Any:
        """The position before the first turn; draws only from ``chance``."""

    def turn(self, scenario, state) -> Turn:
        """Who owes orders for the next turn, and its name."""

    def is_over(self, scenario, state) -> bool:
        """Whether the game has ended by its rules."""

    def parse_orders(self, scenario, state, seat: str, text: str) -> Any:
        """One seat's orders for the next turn; raises pbem.core.orders.OrdersError.
        The result has ``header``, ``final`` and ``echo()`` (the normalised text)."""

    def check_orders(self, scenario, state, seat: str, text: str, *, lang: str = "en") -> Any:
        """The orders as a seat sends them: ``parse_orders``, and also every rule the position at
        the start of the turn already decides refused, and warnings (``orders.warnings``) of what
        depends on the other seats. Orders are checked this way once, when they arrive; a replay
        reads the logged orders with ``parse_orders``, so a stricter check never changes a game
        already played. ``lang`` is the seat's language (en, fr, ru, uk, zh): the errors' and
        warnings' words and the echo; the logged, normalised text is the same in every language.
        A ruleset may define the optional member ``day_orders(checked)``: from the answer of
        ``check_orders`` (in English), the orders ``parse_orders`` would read from the same text against
        the same position (not a copy the check edited), or None; Game.submit hands them to the day,
        which then does not read the text again. And ``orders_language(text, lang)``: the language whose order words
        ``text`` is written in (``lang``, the seat's, where they do not tell; pbem.core.written), in which the
        server has the echo written (``check_orders`` again with that ``lang``) when it is not the seat's."""

    def resolve(self, scenario, state, orders: dict[str, Any], decider: Decider,
                chance: Chance) -> tuple[Any, list[Event]]:
        """Play the next turn: ``orders`` holds the parsed orders of every seat that sent
        some. Returns the new state (``state`` may be changed: it is a copy) and the
        turn's events. Raises pbem.core.decisions.Pending where a seat asked to be asked."""

    def view(self, scenario, state, seat: str | None) -> dict:
        """What ``seat`` may see (None: the moderator, SPECTATOR: onlookers), as plain data
        with at least ``over``, ``winner`` and ``victory``. Onlookers of a game still being
        played see only what every seat sees; once it is over, everything."""

    def digest(self, state) -> str:
        """A short hash of the whole position, to verify replays."""

    def turn_label(self, scenario, turn_number: int, *, lang: str = "en") -> str:
        """The name of turn ``turn_number`` (0-based) when no position names it: the driver names
        a day it has a position for by that position's ``Turn.label`` (pbem.core.game.Game.turn_label),
        and asks this only for days beyond the next."""

    def report(self, game, turn_number: int, seat: str | None, *, deadline: str | None = None,
               game_label: str = "", game_id: str = "", spectator: bool = False, lang: str = "en"):
        """The report of a resolved turn for ``seat`` (None: the moderator), a
        pbem.report.document.Report. Built only from what the seat may see."""

    def orders_template(self, game, seat: str, *, deadline: str | None, game_label: str,
                        game_id: str, lang: str = "en") -> str:
        """The orders form for ``seat``'s next orders, before any turn is reported."""

    def status_lines(self, game, seat: str | None, *, lang: str = "en") -> list[str]:
        """A few lines on the position for the STATUS mail, from ``seat``'s view."""

    def render_svg(self, scenario, view: dict, title: str | None = None, *, lang: str = "en") -> str:
        """The map of ``view`` as a standalone SVG document."""

    def map_clicks(self, scenario, view: dict | None = None, *, lang: str = "en") -> dict:
        """How clicks on the map of the game page write order lines: a "click grammar", plain data
        the page's script follows without knowing the game (empty: no orders by clicking).
        ``view`` is the seat's (the one that owes orders): what the grammar offers comes from it alone.

        What may be clicked: the map (``render_svg``) marks, from the seat's view only,
        ``data-block`` (an own block's id, on its ``<rect>``) with ``data-at`` (where it
        stands, written as orders write it) and any other ``data-*`` facts the verbs test;
        ``data-locale`` and ``data-approach`` (the places, as orders write them). Nothing of
        the enemy is marked. A game whose map marks nothing gives them in the grammar instead,
        as ``regions`` in the map's coordinates (pbem.server.web.clicklayer reads either)::

            "regions": {"blocks": [{"id": "F5", "at": "Marengo", "data": {"type": "infantry"},
                                    "box": [cx, cy, width, height, degrees]}, ...],
                        "places": [{"name": "Marengo>Spinetta", "kind": "approach",
                                    "points": [[x, y], ...]}, ...]}

        and own blocks not on the map that orders may name (reinforcements) as ``offmap``, a
        list of blocks like those with ``"box": None`` (chosen from a list, not on the map).
        The page shows the map as an image, lays a button over each own block, and hit-tests
        other clicks against the places' outlines (approaches first). The grammar::

            {"verbs": [{"name": "move", "title": "Move",
                        "from": ["locale", "approach"],   # where the selection may stand ("offmap" too)
                        "where": {"type": "artillery"},   # data-* every selected block must have
                        "blocks": 1,                      # at most this many blocks (0: any)
                        "targets": ["locale", "approach"],
                        "min": 1, "max": 1,               # places to click after the blocks
                        "to": " -> ",                     # (min 0) written before the targets, if any
                        "options": [                      # choices beside the clicks, written into {name}
                            {"name": "by", "title": "By", "choices": [["", "road"], [" BY PONTOON", "pontoon"]]},
                            {"name": "lead", "title": "Lead", "blocks": " LEAD {}"},  # some of the chosen blocks
                        ],
                        "line": "MOVE {blocks} {from} -> {targets}"}, ...],
             "join": {"blocks": " ", "targets": " -> "}}

        A click on own blocks selects them (blocks at one place together); the first verb
        whose ``from``, ``where`` and ``blocks`` fit is offered first, the others beside it.
        Each place clicked is added to the targets; once ``min`` are there the line is
        written into the orders text (and rewritten as more come, up to ``max``, or as an
        option changes). A verb with no targets is written when chosen. An option's choice
        is written where the line says ``{name}`` (a ``choices`` option: the value chosen; a
        ``blocks`` option: the blocks ticked among those chosen, into its pattern, or nothing).
        The orders text stays the one source of orders: every line is checked by
        ``check_orders`` like typed ones.

        ``lang`` is the page's: the titles, choices' labels and the ``at`` of blocks off the map
        are read in it from the game's catalog, and the lines and choices' values are written in
        the seat's order words of that language where the game's parser reads them
        (pbem.core.clicks.grammar_in); the page's script shows only what it is handed."""

    def bots(self) -> dict[str, Bot]:
        """The game's computer players by name; "bot" is the simple one."""

    def check_turn(self, scenario, result) -> list[str]:
        """The invariants broken by a resolved turn (a pbem.core.game.DayResult), as sentences."""

    def summary(self, scenario, state) -> dict:
        """A finished game for balance runs: ``winner`` (a side or None), ``how`` it was won,
        ``means`` (name -> number, averaged over a run) and ``counts`` (name -> things counted)."""

    def run_case(self, path: Path) -> Any:
        """Run one adjudication case file; the outcome has ``ok``, ``failures`` (what did not
        hold, as sentences) and ``title``. Raises ValueError for a case that cannot be read."""

    def show_case(self, outcome) -> str:
        """A case's outcome, written out for a person."""
