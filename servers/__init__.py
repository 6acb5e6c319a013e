"""Mock servers, referees, game records and the arena. Never imports search or clients."""
