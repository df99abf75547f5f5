"""The seed tools (the SDK's own elicitation examples, recorded in
`core/tests/fixtures/transcripts/`) and the URL-mode flows.

- `book_table(date, party_size=2)`: legacy era only (`ctx.elicit`; in the modern era the
  SDK answers HTTP 400 because it has no back-channel). A date of `2025-12-25` is fully
  booked, so it asks `AlternativeDate`. Returns `Booked a table for {n} on {date}.`,
  `No table booked.` (accepted without alternative), `declined: no table booked`,
  `cancelled: no table booked`.
- `pay_deposit(booking_id)`: URL mode. Legacy: `ctx.elicit_url` with elicitation id
  `deposit-{booking_id}`; modern: a hand-rolled `InputRequiredResult` carrying a URL-mode
  `elicitation/create` under the key `deposit`. Returns
  `Complete the payment in your browser.`, `declined: no deposit paid`,
  `cancelled: no deposit paid`.
- `confirm_deposit(booking_id)`: legacy: sends `notifications/elicitation/complete` for
  `deposit-{booking_id}` on the session's GET stream. Returns
  `Deposit deposit-{id} confirmed.` (modern: the era has no such notification; the text
  says so).
- `open_vault(vault)`: legacy only, raises -32042 (URL elicitation required) with a
  URL elicitation `vault-{vault}`, until `confirm_deposit`-style `unlock_vault(vault)`
  was called; then returns `Vault {vault} opened.`
- `delete_folder(path)`: a Resolver with `Elicit` (both eras), the tool takes the whole
  `ElicitationResult`. Returns `deleted {path}`, `kept {path}` (accepted with ok=false),
  `declined: folder not deleted`, `cancelled: folder not deleted`.
- `book_in_region(region)`: `region` carries `x-mcp-header: Region` (`--region-header
  NAME` changes the name, as a redeployed tool would), so a modern request must mirror
  it in `Mcp-Param-Region` (the SDK answers HTTP 400, -32020, otherwise);
  asks one confirmation. Returns `Booked in region {region}.`, `Not booked in region
  {region}.`, `declined: not booked in region {region}` / `cancelled: ...`.

The exact texts are in `demo_server.texts`.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import AcceptedElicitation, Context, Elicit, ElicitationResult, Resolve
from mcp.shared.exceptions import UrlElicitationRequiredError
from mcp_types import ElicitRequest, ElicitRequestURLParams, ElicitResult, InputRequiredResult
from pydantic import Field

from ..common import Strict, action_word, is_modern, outcome_word, resolver
from ..texts import BookInRegion, BookTable, DeleteFolder, Deposit, Vault

# Out-of-band state of the URL flows (a real server would keep this per user).
confirmed_deposits: set[str] = set()
unlocked_vaults: set[str] = set()


# --- book_table: ctx.elicit (legacy era) --------------------------------------------


class AlternativeDate(Strict):
    accept_alternative: bool = Field(description=BookTable.ACCEPT_ALTERNATIVE)
    date: str = Field(default=BookTable.DEFAULT_DATE, description=BookTable.DATE)


async def book_table(date: str, ctx: Context, party_size: int = 2) -> str:
    """Book a table; 2025-12-25 is full, so the server asks for another date."""
    if date != BookTable.FULL_DATE:
        return BookTable.BOOKED.format(party_size=party_size, date=date)
    result = await ctx.elicit(
        message=BookTable.QUESTION.format(party_size=party_size, date=date),
        schema=AlternativeDate,
    )
    if isinstance(result, AcceptedElicitation):
        if result.data.accept_alternative:
            return BookTable.BOOKED.format(party_size=party_size, date=result.data.date)
        return BookTable.NOT_BOOKED
    return BookTable.REFUSED.format(outcome=outcome_word(result))


# --- pay_deposit / confirm_deposit: URL mode ------------------------------------------


async def pay_deposit(booking_id: str, ctx: Context) -> str | InputRequiredResult:
    """Ask the user to pay a deposit on an external page (URL-mode elicitation)."""
    url = Deposit.URL.format(booking_id=booking_id)
    if not is_modern(ctx):
        outcome = await ctx.elicit_url(
            message=Deposit.MESSAGE, url=url, elicitation_id=Deposit.ELICITATION_ID.format(booking_id=booking_id)
        )
        action = outcome.action
    else:
        answer = (ctx.input_responses or {}).get(Deposit.MODERN_KEY)
        if not isinstance(answer, ElicitResult):
            # The modern era has no elicitationId and no completion notification.
            return InputRequiredResult(
                input_requests={
                    Deposit.MODERN_KEY: ElicitRequest(params=ElicitRequestURLParams(message=Deposit.MESSAGE, url=url))
                },
                request_state=f"pay_deposit:{booking_id}",
            )
        action = answer.action
    if action == "accept":
        return Deposit.PAY
    return Deposit.REFUSED.format(outcome=action_word(action))


async def confirm_deposit(booking_id: str, ctx: Context) -> str:
    """Mark the deposit paid; tells a legacy client on its GET stream that the URL step is done."""
    elicitation_id = Deposit.ELICITATION_ID.format(booking_id=booking_id)
    confirmed_deposits.add(elicitation_id)
    if is_modern(ctx):
        return Deposit.CONFIRMED_MODERN.format(elicitation_id=elicitation_id)
    # No related request id: the notification goes on the session's standalone GET stream.
    await ctx.session.send_elicit_complete(elicitation_id)
    return Deposit.CONFIRMED.format(elicitation_id=elicitation_id)


# --- open_vault: -32042 URL elicitation required (legacy error) -----------------------


async def open_vault(vault: str) -> str:
    """Fails with -32042 until the vault's URL step is done (see `unlock_vault`)."""
    elicitation_id = Vault.ELICITATION_ID.format(vault=vault)
    if elicitation_id not in unlocked_vaults:
        raise UrlElicitationRequiredError(
            [
                ElicitRequestURLParams(
                    message=Vault.MESSAGE.format(vault=vault),
                    url=Vault.URL.format(vault=vault),
                    elicitation_id=elicitation_id,
                )
            ]
        )
    return Vault.OPENED.format(vault=vault)


async def unlock_vault(vault: str, ctx: Context) -> str:
    """Finish the vault's URL step out of band; legacy clients get the completion notification."""
    elicitation_id = Vault.ELICITATION_ID.format(vault=vault)
    unlocked_vaults.add(elicitation_id)
    if not is_modern(ctx):
        await ctx.session.send_elicit_complete(elicitation_id)
    return Vault.UNLOCKED.format(vault=vault)


# --- delete_folder: Resolver with Elicit, full ElicitationResult injected -------------


class ConfirmDelete(Strict):
    ok: bool


@resolver
def confirm_delete(path: str) -> Elicit[ConfirmDelete]:
    return Elicit(DeleteFolder.QUESTION.format(path=path), ConfirmDelete)


async def delete_folder(
    path: str, confirm: Annotated[ElicitationResult[ConfirmDelete], Resolve(confirm_delete)]
) -> str:
    """Delete a folder after the user confirms (pretend: nothing is deleted)."""
    if isinstance(confirm, AcceptedElicitation):
        return (DeleteFolder.DELETED if confirm.data.ok else DeleteFolder.KEPT).format(path=path)
    return DeleteFolder.REFUSED.format(outcome=outcome_word(confirm))


# --- book_in_region: an argument mirrored in an Mcp-Param-* header ------------------


class ConfirmRegion(Strict):
    ok: bool = Field(default=True, title=BookInRegion.OK)


@resolver
def confirm_region(region: str) -> Elicit[ConfirmRegion]:
    return Elicit(BookInRegion.QUESTION.format(region=region), ConfirmRegion)


def make_book_in_region(header: str = BookInRegion.HEADER) -> Any:
    """`book_in_region` whose `region` is mirrored in `Mcp-Param-{header}` (see `--region-header`)."""

    async def book_in_region(
        region: str,
        confirm: Annotated[ElicitationResult[ConfirmRegion], Resolve(confirm_region)],
    ) -> str:
        """A modern-era client must send `Mcp-Param-<header>` mirroring `region` (else HTTP 400, -32020)."""
        if isinstance(confirm, AcceptedElicitation):
            return (BookInRegion.BOOKED if confirm.data.ok else BookInRegion.NOT_BOOKED).format(region=region)
        return BookInRegion.REFUSED.format(outcome=outcome_word(confirm), region=region)

    # Annotations are strings here (`from __future__ import annotations`), evaluated in the
    # module's namespace where `header` does not exist: give this one as an object.
    book_in_region.__annotations__["region"] = Annotated[
        str, Field(description=BookInRegion.REGION, json_schema_extra={"x-mcp-header": header})
    ]
    return book_in_region
