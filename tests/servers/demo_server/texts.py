"""Every text the demo server sends that a test checks: questions, field titles, option
labels, results and error words.

The tools build their messages from these and the e2e tests import them, so a re-worded
question changes here once and no test keeps a stale copy. Templates are `str.format`
strings with named fields (`BOOKED.format(party_size=2, date="2025-12-27")`); `matches`
tells whether a text is one a template makes, for the parts a test cannot know. It imports
nothing of the SDK: a test reads this module without loading it.
"""

import re
import string


def matches(template: str, text: str) -> bool:
    """Whether `text` is what `template.format(...)` makes for some values of its fields."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".*?")
    return re.fullmatch("".join(parts), text, flags=re.DOTALL) is not None

MODERN = "2026-07-28"
"""First protocol revision without server-to-client requests (input_required rounds)."""

SERVER_NAME = "mcp-elicit demo"

DECLINED = "declined"
CANCELLED = "cancelled"
"""The words for a refused question (`outcome_word`); results below are built from them."""


class BookTable:
    """`book_table` (legacy era): 2025-12-25 is fully booked, so it asks for another date."""

    FULL_DATE = "2025-12-25"
    QUESTION = "No tables for {party_size} on {date}. Would you like to try another date?"
    ACCEPT_ALTERNATIVE = "Try another date?"
    DATE = "Alternative date (YYYY-MM-DD)"
    DEFAULT_DATE = "2025-12-26"
    BOOKED = "Booked a table for {party_size} on {date}."
    NOT_BOOKED = "No table booked."
    REFUSED = "{outcome}: no table booked"


class Deposit:
    """`pay_deposit` (URL mode), `confirm_deposit` and `confirm_deposit_after_drop`."""

    MESSAGE = "A 20 EUR deposit confirms your booking."
    URL = "https://pay.example.com/deposit/{booking_id}"
    ELICITATION_ID = "deposit-{booking_id}"
    MODERN_KEY = "deposit"
    PAY = "Complete the payment in your browser."
    REFUSED = "{outcome}: no deposit paid"
    CONFIRMED = "Deposit {elicitation_id} confirmed."
    CONFIRMED_MODERN = "Deposit {elicitation_id} confirmed (no completion notification in " + MODERN + ")."
    CONFIRMED_AFTER_DROP = "Deposit {elicitation_id} confirmed after a stream drop."


class Vault:
    """`open_vault` (-32042 until the URL step is done) and `unlock_vault`."""

    ELICITATION_ID = "vault-{vault}"
    MESSAGE = "Sign in to open vault {vault}."
    URL = "https://vault.example.com/unlock/{vault}"
    OPENED = "Vault {vault} opened."
    UNLOCKED = "Vault {vault} unlocked."


class DeleteFolder:
    """`delete_folder`: one confirmation (`ok`)."""

    QUESTION = "{path} has 2 file(s). Delete anyway?"
    DELETED = "deleted {path}"
    KEPT = "kept {path}"
    REFUSED = "{outcome}: folder not deleted"


class BookInRegion:
    """`book_in_region`: `region` mirrored in `Mcp-Param-{header}`."""

    HEADER = "Region"
    """The default header name (`--region-header` changes it)."""
    REGION = "Routing region"
    QUESTION = "Book a table in region {region}?"
    OK = "Book here?"
    BOOKED = "Booked in region {region}."
    NOT_BOOKED = "Not booked in region {region}."
    REFUSED = "{outcome}: not booked in region {region}"


class AllFields:
    """`all_fields`: one form with every field kind; the titles are the labels a page shows."""

    QUESTION = "Tell us about yourself (every field kind)."
    NAME = "Full name"
    NAME_DESCRIPTION = "As on your passport"
    NICKNAME = "Nickname"
    EMAIL = "Email"
    HOMEPAGE = "Homepage"
    BIRTHDAY = "Birthday"
    MEETING = "Meeting time"
    CODE = "Airport code"
    AGE = "Age"
    RATING = "Rating"
    SUBSCRIBE = "Subscribe"
    COLOUR = "Colour"
    SIZE = "Size"
    SIZES = {"s": "Small", "m": "Medium", "l": "Large"}
    PET = "Pet"
    PETS = {"cat": "Cat", "dog": "Dog", "fish": "Fish"}
    TOPPINGS = "Toppings"
    LANGUAGES = "Languages"
    LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German"}
    DAYS = "Days"
    ACCEPTED = "accepted {json}"


class PlanTrip:
    """`plan_trip`: three independent questions in one round."""

    DESTINATION = "Where to?"
    CITY = "City"
    TRAVELLERS = "Who is travelling?"
    ADULTS = "Adults"
    CHILDREN = "Children"
    EXTRAS = "Any extras?"
    INSURANCE = "Travel insurance"
    ACCEPTED = "accepted destination={destination} travellers={travellers} extras={extras}"
    NOT_PLANNED = "not planned: {refused}"
    """`refused` is `{name} {outcome}` per refused question, comma-separated."""


class SetupAccount:
    """`setup_account`: a three-round chain."""

    USERNAME_QUESTION = "Step 1 of 3: choose a username."
    USERNAME = "Username"
    PLAN_QUESTION = "Step 2 of 3: which plan for {username}?"
    PLAN = "Plan"
    NEWSLETTER_QUESTION = "Step 3 of 3: newsletter for the {plan} plan?"
    NEWSLETTER = "Newsletter"
    DONE = "account {username} on {plan} plan, newsletter={newsletter}"
    REFUSED = "{outcome} at {step}"


class Endless:
    """`endless_questions`: asks again after every accepted answer."""

    QUESTION = "Question {n}: shall I ask again?"
    ANSWER = "Answer"
    STOPPED = "stopped after {answers} answers: {action}"


class ClientRequests:
    """`ask_llm` (sampling) and `list_my_roots` (roots)."""

    SAID = "llm ({model}) said: {text}"
    MAX_TOKENS = 200
    ROOTS = "roots: {uris}"
    NO_ROOTS = "roots: none"


class Resume:
    """`resume_after_drop`: the question asked after the stream is closed."""

    QUESTION = "Still there after the reconnect?"
    OK = "Still there"
    MODERN_KEY = "still_there"
    OK_RESULT = "resumed: ok"
    NOT_OK = "resumed: not ok"
    REFUSED = "resumed: {outcome}"


class SlowReport:
    """`slow_report`: state-only rounds a client must retry with back-off."""

    READY = "report ready after {tries} retries"
    READY_LEGACY = "report ready"
    TOO_SOON = "slow_report: try {n} came {ms:.1f} ms after the answer before it (at least {min_ms} ms: back off before retrying)"
    UNKNOWN = "slow_report: try {n} belongs to no call this server remembers"


class Route:
    """`plan_route` (nested arguments) and `route_by_list` (an invalid `x-mcp-header`)."""

    ROUTE = "route: {legs}"
    EMPTY = "route: empty"
    ROUTED = "routed to {regions}"
    REGIONS = "Regions"
    HEADER = "Regions"
    """The `x-mcp-header` name on the array (invalid there)."""


class Notes:
    """`flaky_note` (the first delivery of each answer fails) and `cut_note` (its response is cut)."""

    FLAKY_QUESTION = "Write a note to keep."
    CUT_QUESTION = "Write a note to send twice."
    NOTE = "Note"
    NOTED = "noted: {note}"
    NOTED_AFTER_CUT = "noted after a cut: {note}"
    REFUSED = "{outcome}: no note"
    FLAKY_503 = "flaky_note: this answer fails once on purpose"


class TripBrief:
    """The `trip_brief(city)` prompt."""

    QUESTION = "How many days in {city}?"
    DAYS = "Days"
    KEY = "days"
    PLAN = "Plan a {days}-day trip to {city}."
    REFUSED = "No trip brief for {city}: {outcome}"


class NoteResource:
    """The `notes://{name}` resource template."""

    QUESTION = "Reveal note {name}?"
    OK = "Reveal"
    KEY = "reveal"
    SHOWN = "Note {name}: water the plants."
    HIDDEN = "Note {name} stays hidden."
    CANCELLED = "Note {name}: cancelled."


class FormErrors:
    """JSON-RPC -32602 messages for an answer a prompt or resource cannot use."""

    MISMATCH = "Received an accepted elicitation whose content does not match the requested schema"
    NO_CONTENT = "Received an accepted elicitation with no content"
    INVALID = "Received an invalid elicitation response"


class Auth:
    """`--auth` (OAuth sign-in) and `--api-key` (see `demo_server.auth`): the scopes, the
    tools only those modes have, and their results."""

    SCOPE = "mcp"
    """The scope every request needs (the resource metadata's `scopes_supported`)."""
    ADMIN_SCOPE = "admin"
    """The extra scope `admin_report` needs: calling it with only `mcp` is a step-up."""
    WHOAMI = "whoami"
    ADMIN_REPORT = "admin_report"
    SIGNED_IN = "signed in with scopes: {scopes}"
    """`whoami`'s result under `--auth` (scopes sorted, space-separated)."""
    API_KEY = "signed in with an API key"
    """`whoami`'s result under `--api-key`."""
    REPORT = "admin report, seen with scopes: {scopes}"
    API_KEY_MISSING = "this server needs an API key (Authorization: Bearer KEY, or X-API-Key: KEY)"
    STEP_UP = "this tool needs the scope {scope}"
