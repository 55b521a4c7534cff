"""The service layer: every operation of the server, done once.

The web pages, the JSON API, the mail handler, the scheduler and the command
line all call these methods; none of them touches the store or the engine
directly. A method changes the database in one transaction, so a crash leaves
all of an operation or none of it.

``Service`` is the one object they call. Its operations live in parts of one
concern each, which share what ``base.ServiceBase`` holds (the store, the
clock, the games replayed from their logs, seats and keys):

- ``games.py``: creating games and taking seats;
- ``orders.py``: checking and recording orders;
- ``turns.py``: the clock, resolving turns, missed turns, "ask me" decisions;
- ``reports.py``: reports, maps, STATUS;
- ``players.py``: vacations (a game's days, and vacations scheduled ahead) and new keys;
- ``endings.py``: resigning and draws by agreement;
- ``press.py``: messages between seats;
- ``invitations.py``: private games, seats kept for an invited address;
- ``replay.py``: a game stepped through day by day, in each view;
- ``bots.py``: seats played by the computer;
- ``seats.py``: players moved between seats by the game's rules (an auction's winner);
- moderators' rulings are pbem.server.moderation's.
"""

from __future__ import annotations

from .base import ServiceBase, ServiceError, scenario_path
from .bots import Bots
from .endings import Endings
from .games import Games
from .invitations import Invitations
from .orders import Orders, Submission, redact_key
from .players import Players, Vacations
from .press import Press
from .replay import Replay
from .reports import Reports
from .seats import Seats
from .turns import Turns

__all__ = ["Service", "ServiceError", "Submission", "redact_key", "scenario_path"]


class Service(Seats, Bots, Games, Orders, Turns, Reports, Players, Vacations, Endings, Press, Replay, Invitations, ServiceBase):
    def moderate(self, game_id: int, who: str, action: str, why: str, **args) -> str:
        """A moderator's ruling (see pbem.server.moderation): done, audited, told to the players."""
        from pbem.server import moderation

        return moderation.moderate(self, game_id, who, action, why, **args)
