"""The rules index: every guide section the display's badges cite, in our own words."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from hub.web import rules


def router(ctl):
    router = APIRouter()

    @router.get("/api/rules", tags=["public"],
                summary="The rules index for learners: each guide section in our own words, ko and en")
    async def get_rules():
        # a package file: the same answer for the life of the hub (the page caches it a day)
        return JSONResponse({"sections": rules.index()}, headers={"Cache-Control": "public, max-age=86400"})

    return router
