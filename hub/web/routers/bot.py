"""The practice bot and the coach as the page sees them: the levels, the hub's defaults for a
practice game (``lumen hub --bot``), and what the game on the table has of either."""

from fastapi import APIRouter

from hub.bot.meta import LEVELS, bot_of


def router(ctl):
    table = ctl.table
    router = APIRouter()

    @router.get("/api/bot", tags=["public"], summary="The hub's practice bot: levels, defaults, the current game's")
    async def get_bot():
        bot = getattr(table, "bot", None)
        who = bot_of(table.meta) if table.session is not None else None
        return {"levels": list(LEVELS), "available": bot is not None,
                "defaults": dict(bot.defaults) if bot is not None else None,
                "game": {"bot": None if who is None else {"seat": who[0], "level": who[1]},
                         "coach": list((table.meta or {}).get("coach") or []) if table.session is not None else []}}

    return router
