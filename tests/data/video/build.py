"""Build the labelled video sets of tests/data/video/ (label 1 = a careful person watching the clip would
pass the case; 0 = would fail it).

- text_to_video.jsonl (``text-to-video``): a ``prompt`` and a ``clip`` that shows it or fails to (wrong
  text, a near-miss figure, a wrong colour, a missing step, steps in the wrong order, the words of a
  title reordered).
- video_factual_consistency.jsonl (``video-factual-consistency``): an ``output`` describing the
  scenario's clip, true or subtly false (a near-miss figure, a text never shown, a wrong colour, a
  claim about order, a negation dropped, a claim only the scene can settle).
- video_g_eval.jsonl (``video-g-eval``): a ``rubric`` and clips that satisfy it or violate it (an
  error dialog, a missing step, a near-miss figure, an error shown only for a moment).

16 scenarios a user would record or generate: screen recordings of app flows (checkout, password
reset, upload, Wi-Fi, bank transfer, sign-up), slide decks, captioned clips over scikit-image photos
(a recipe, a pet adoption, a news ticker) and generated promo cards. A clip is a JSON ``clip`` spec
(kind, size, fps, scenes: what each scene shows and for how many frames) that ``render(spec)`` turns
into the same Motion JPEG AVI every time with OpenCV — no video is stored; the bench and the tests
render them. A scene marked ``brief`` is shown for 2–3 frames (0.4–0.6 s at 5 fps) placed between the
8 frames the judged metrics sample (their ``even`` plan), so a metric that reads only the sampled
frames cannot see it although a person watching the clip does.

Every row has ``id``, ``metric``, ``group`` (the scenario; all its rows share a split), ``split``
(tests/data/splits.py ``split_of(file stem, group)``, fixed before any metric ran), ``kind`` (the sort
of case), ``label`` and ``clip``; each group has 2 pass and 2 fail rows.

Run: python tests/data/video/build.py [--avi DIR]   (--avi also writes every clip as an AVI)
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from splits import split_of  # noqa: E402  (tests/data/splits.py)

SIZE = (640, 360)
FPS = 5
SAMPLED = 8  # the judged video metrics' default config.frames
# RGB, the CSS table of agentunit.multimodal.evidence (so a colour drawn is the colour named)
COLOURS = {"black": (0, 0, 0), "white": (255, 255, 255), "gray": (128, 128, 128), "red": (220, 20, 20),
           "orange": (255, 140, 0), "yellow": (255, 230, 0), "green": (0, 160, 0), "teal": (0, 128, 128),
           "blue": (20, 40, 220), "navy": (0, 0, 128), "purple": (128, 0, 128), "light": (245, 245, 245)}
SETS = {"text_to_video.jsonl": "text-to-video", "video_factual_consistency.jsonl": "video-factual-consistency",
        "video_g_eval.jsonl": "video-g-eval"}


# -- clip specs ----------------------------------------------------------------------------------------

def screen(app: str, lines: list[str], button: str | None = None, bar: str = "navy", frames: int = 8,
           dialog: dict[str, str] | None = None, brief: bool = False) -> dict[str, Any]:
    scene: dict[str, Any] = {"frames": frames, "app": app, "bar": bar, "lines": lines}
    if button:
        scene["button"] = button
    if dialog:
        scene["dialog"] = dialog
    if brief:
        scene["brief"] = True
    return scene


def slide(title: str, bullets: list[str], frames: int = 10) -> dict[str, Any]:
    return {"frames": frames, "title": title, "bullets": bullets}


def caption(text: str, frames: int = 8, brief: bool = False) -> dict[str, Any]:
    return {"frames": frames, "caption": text, **({"brief": True} if brief else {})}


def card(lines: list[str], frames: int = 8) -> dict[str, Any]:
    return {"frames": frames, "lines": lines}


def clip(kind: str, scenes: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "size": list(SIZE), "fps": FPS, **extra, "scenes": scenes}


def sample_indices(count: int) -> list[int]:
    """The frames the judged metrics read (agentunit.video.decode's ``even`` plan, 8 frames)."""
    n = min(SAMPLED, count)
    return sorted({min(count - 1, int((i + 0.5) * count / n)) for i in range(n)})


def place_brief(spec: dict[str, Any]) -> dict[str, Any]:
    """Give each ``brief`` scene 3 frames (2 if 3 cannot fit) that none of the sampled frames falls on,
    by lengthening the scene before it; raises if that is impossible."""
    spec = copy.deepcopy(spec)
    scenes = spec["scenes"]
    for i, scene in enumerate(scenes):
        if not scene.get("brief"):
            continue
        if i == 0:
            raise ValueError("a brief scene cannot open the clip")
        base = scenes[i - 1]["frames"]
        for length in (3, 2):
            scene["frames"] = length
            for extra in range(0, 8):
                scenes[i - 1]["frames"] = base + extra
                start = sum(s["frames"] for s in scenes[:i])
                total = sum(s["frames"] for s in scenes)
                if not set(range(start, start + length)) & set(sample_indices(total)):
                    break
            else:
                continue
            break
        else:
            raise ValueError(f"cannot place brief scene {i}")
    return spec


def clip_id(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


# -- edits that make a variant -------------------------------------------------------------------------

def _strings(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_strings(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _strings(v, old, new) for k, v in value.items()}
    return value


def sub(spec: dict[str, Any], *pairs: str) -> dict[str, Any]:
    """Replace text in every scene (pairs: old, new, old, new …)."""
    out = copy.deepcopy(spec)
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        out["scenes"] = _strings(out["scenes"], old, new)
    return out


def drop(spec: dict[str, Any], *indices: int) -> dict[str, Any]:
    out = copy.deepcopy(spec)
    out["scenes"] = [s for i, s in enumerate(out["scenes"]) if i not in {i % len(spec["scenes"]) for i in indices}]
    return out


def swap(spec: dict[str, Any], i: int, j: int) -> dict[str, Any]:
    out = copy.deepcopy(spec)
    scenes = out["scenes"]
    scenes[i], scenes[j] = scenes[j], scenes[i]
    return out


def insert(spec: dict[str, Any], index: int, scene: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(spec)
    out["scenes"].insert(index if index >= 0 else len(out["scenes"]) + index + 1, scene)
    return out


def replace(spec: dict[str, Any], index: int, scene: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(spec)
    out["scenes"][index] = scene
    return out


def with_(spec: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(spec), **fields}


# -- the 16 scenarios ----------------------------------------------------------------------------------
# Each: the clip that shows the scenario as it should be (``clip``), and per metric two pass and two fail
# cases: (kind, label, text, clip) with ``None`` for the scenario's clip.

def scenarios() -> list[dict[str, Any]]:
    out = []

    # 1. checkout (screen recording)
    base = clip("screen", [
        screen("Shop > Cart", ["Wireless mouse x1", "USB-C cable x2", "Total: $48.90"], "Checkout"),
        screen("Shop > Payment", ["Card ending 4421", "Amount: $48.90"], "Pay now"),
        screen("Shop > Payment", ["Processing payment..."], frames=6),
        screen("Shop > Done", ["Order confirmed", "Order #58213", "Arrives Thu 14 Nov"], "Track order", bar="green",
               frames=10)])
    failed = screen("Shop > Payment", ["Card ending 4421", "Amount: $48.90"], bar="red", frames=10,
                    dialog={"title": "Payment failed", "text": "Error E-402", "colour": "red"})
    out.append({"group": "checkout", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording of a checkout: the cart totals "$48.90", then payment, ending '
                               'on "Order confirmed" with order number 58213.', None),
        ("faithful_plain", 1, "A screen recording of someone buying a wireless mouse and two cables for $48.90 "
                              "and getting an order confirmation.", None),
        ("near_miss_number", 0, 'A screen recording of a checkout: the cart totals "$48.90", then payment, '
                                'ending on "Order confirmed" with order number 58213.', sub(base, "58213", "58231")),
        ("wrong_outcome", 0, "A screen recording of someone buying a wireless mouse and two cables for $48.90 "
                             "and getting an order confirmation.", replace(base, 3, failed))],
        "factual": [
        ("true_quoted", 1, 'The cart total is $48.90, paid with the card ending 4421, and the recording ends on '
                           '"Order confirmed" with order #58213.', None),
        ("true_order", 1, "The user pays first and only then sees the order confirmation, arriving Thu 14 Nov.", None),
        ("near_miss_number", 0, "The order was confirmed with order number 58231 for $48.90.", None),
        ("never_shown", 0, 'Payment first failed with "Error E-402", then the order was confirmed.', None)],
        "geval": ("The screen recording shows the checkout completing with an order confirmation and no error "
                  "dialog.", [
        ("satisfies", 1, None),
        ("satisfies_slower", 1, insert(base, 1, screen("Shop > Cart", ["Loading payment options..."], frames=6))),
        ("error_dialog", 0, replace(base, 3, failed)),
        ("brief_error", 0, insert(base, 3, screen("Shop > Payment", ["Processing payment..."], bar="red", brief=True,
                                                  dialog={"title": "Payment failed", "text": "Retrying card",
                                                          "colour": "red"})))])})

    # 2. password reset (screen recording)
    base = clip("screen", [
        screen("Account > Sign in", ["Email: dana@mail.com", "Password: ********"], "Forgot password?"),
        screen("Reset password", ["Reset link sent to", "dana@mail.com", "Link valid for 30 min"], "Open email"),
        screen("New password", ["New password: ********", "Strength: Strong"], "Save"),
        screen("Account", ["Password updated", "Signed in as Dana"], "Continue", bar="green")])
    expired = screen("Reset password", ["Link expired", "Request a new link"], "Resend", bar="red")
    out.append({"group": "password-reset", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording of a password reset: the reset link is valid for 30 min and it '
                               'ends on "Password updated".', None),
        ("faithful_plain", 1, "A screen recording of a user resetting a forgotten password and signing in again.",
         None),
        ("wrong_outcome", 0, 'A screen recording of a password reset: the reset link is valid for 30 min and it '
                             'ends on "Password updated".', replace(base, 3, expired)),
        ("missing_step", 0, "A screen recording of a user resetting a forgotten password and signing in again.",
         drop(base, 3))],
        "factual": [
        ("true_quoted", 1, 'The reset link went to dana@mail.com and is valid for 30 min; the recording ends with '
                           '"Password updated".', None),
        ("true_detail", 1, 'The strength meter shows "Strong" before the user saves the new password.', None),
        ("wrong_figure", 0, "The reset link is valid for 15 min and the password was updated.", None),
        ("wrong_order", 0, 'The recording starts with "Password updated" and only then is a reset link sent.',
         None)],
        "geval": ("The recording shows the password being reset successfully and the user signed in.", [
        ("satisfies", 1, None),
        ("satisfies_extra_step", 1, insert(base, 2, screen("Mail", ["Reset your password", "Click the link below"],
                                                            "Reset password", bar="gray", frames=6))),
        ("wrong_outcome", 0, replace(base, 3, expired)),
        ("missing_step", 0, drop(base, 3))])})

    # 3. file upload (screen recording); a brief "Virus scan: clean" notice
    base = clip("screen", [
        screen("Drive > Upload", ["report_q3.pdf", "Size: 12.4 MB"], "Upload"),
        screen("Drive > Upload", ["Uploading report_q3.pdf", "Progress: 45%"]),
        screen("Drive > Upload", ["Uploading report_q3.pdf", "Progress: 90%"]),
        screen("Drive > Upload", ["Virus scan: clean"], brief=True),
        screen("Drive", ["Upload complete", "report_q3.pdf - 12.4 MB", "Shared with Finance"], "Open file",
               bar="green", frames=10)])
    upload_failed = screen("Drive > Upload", ["report_q3.pdf"], bar="red", frames=10,
                           dialog={"title": "Upload failed", "text": "File larger than 10 MB", "colour": "red"})
    stalled = screen("Drive > Upload", ["Uploading report_q3.pdf", "Progress: 90%", "Network error"], "Retry",
                     frames=10)
    out.append({"group": "file-upload", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording uploading a 12.4 MB file that ends on "Upload complete".', None),
        ("faithful_plain", 1, "A recording of a PDF report being uploaded and shared with the finance team.", None),
        ("wrong_outcome", 0, 'A screen recording uploading a 12.4 MB file that ends on "Upload complete".',
         replace(drop(base, 3), 3, upload_failed)),
        ("missing_step", 0, "A recording of a PDF report being uploaded and shared with the finance team.",
         replace(drop(base, 3), 3, stalled))],
        "factual": [
        ("true_quoted", 1, "The file report_q3.pdf (12.4 MB) uploaded completely and was shared with Finance.", None),
        ("brief_text", 1, 'A "Virus scan: clean" notice appeared just before the upload completed.', None),
        ("near_miss_number", 0, "The uploaded file was 14.2 MB.", None),
        ("never_shown", 0, 'The upload stopped at 45% with a "Network error" before completing.', None)],
        "geval": ("The recording shows the file upload finishing successfully.", [
        ("satisfies", 1, None),
        ("satisfies_other_values", 1, sub(base, "45%", "30%", "90%", "75%")),
        ("error_dialog", 0, replace(drop(base, 3), 3, upload_failed)),
        ("missing_step", 0, replace(drop(base, 3), 3, stalled))])})

    # 4. Wi-Fi (screen recording)
    base = clip("screen", [
        screen("Settings > Wi-Fi", ["Wi-Fi: Off"], "Turn on", frames=7),
        screen("Settings > Wi-Fi", ["Wi-Fi: On", "Searching..."], frames=7),
        screen("Settings > Wi-Fi", ["Wi-Fi: On", "HomeNet-5G", "CoffeeBar Guest"], "Connect"),
        screen("Settings > Wi-Fi", ["Wi-Fi: On", "Connected: HomeNet-5G", "Signal: Strong"], frames=10)])
    wrong_net = sub(base, "Connected: HomeNet-5G", "Connected: CoffeeBar Guest")
    out.append({"group": "wifi-connect", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording of turning Wi-Fi on and connecting to "HomeNet-5G".', None),
        ("faithful_plain", 1, "A tutorial recording showing how to join the home Wi-Fi network from the settings "
                              "screen.", None),
        ("shown_wrong_role", 0, 'A screen recording of turning Wi-Fi on and connecting to "HomeNet-5G".', wrong_net),
        ("missing_step", 0, "A tutorial recording showing how to join the home Wi-Fi network from the settings "
                            "screen.", drop(base, 2, 3))],
        "factual": [
        ("true_quoted", 1, 'The phone ends up "Connected: HomeNet-5G" with a strong signal.', None),
        ("true_order", 1, 'Wi-Fi starts "Off" and is switched on before the list of networks appears.', None),
        ("shown_wrong_role", 0, 'The phone connected to "CoffeeBar Guest".', None),
        ("never_shown", 0, 'The signal strength is shown as "Weak".', None)],
        "geval": ("The recording shows Wi-Fi being turned on and the phone connecting to the HomeNet-5G network.", [
        ("satisfies", 1, None),
        ("satisfies_no_search", 1, drop(base, 1)),
        ("wrong_network", 0, wrong_net),
        ("error_dialog", 0, replace(base, 3, screen("Settings > Wi-Fi", ["Wi-Fi: On", "HomeNet-5G"], bar="red",
                                                     frames=10, dialog={"title": "Incorrect password",
                                                                        "text": "Could not join HomeNet-5G",
                                                                        "colour": "red"})))])})

    # 5. bank transfer (screen recording)
    base = clip("screen", [
        screen("Bank > Transfer", ["To: Alice Moreno", "Amount: $250.00", "From: Checking"], "Review", frames=10),
        screen("Confirm transfer", ["Send $250.00 to", "Alice Moreno?", "Fee: $0.00"], "Confirm", frames=10),
        screen("Transfer sent", ["Reference TX-77120", "Balance: $1,340.55"], "Done", bar="green", frames=12)])
    declined = screen("Bank > Transfer", ["Amount: $250.00"], bar="red", frames=12,
                      dialog={"title": "Transfer declined", "text": "Daily limit reached", "colour": "red"})
    out.append({"group": "bank-transfer", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording of sending "$250.00" to Alice Moreno, ending on "Transfer sent".',
         None),
        ("faithful_plain", 1, "A recording of a bank transfer of $250 to Alice Moreno that goes through.", None),
        ("near_miss_number", 0, 'A screen recording of sending "$250.00" to Alice Moreno, ending on "Transfer '
                                'sent".', sub(base, "$250.00", "$25.00")),
        ("near_miss_name", 0, "A recording of a bank transfer of $250 to Alice Moreno that goes through.",
         sub(base, "Alice Moreno", "Alice Moreira"))],
        "factual": [
        ("true_quoted", 1, "The transfer of $250.00 went through with reference TX-77120.", None),
        ("true_detail", 1, "After the transfer the balance is $1,340.55.", None),
        ("near_miss_code", 0, "The transfer reference is TX-71120.", None),
        ("never_shown", 0, "A fee of $2.50 was charged on the transfer.", None)],
        "geval": ("The recording shows a $250.00 transfer to Alice Moreno completing.", [
        ("satisfies", 1, None),
        ("satisfies_other_balance", 1, sub(base, "$1,340.55", "$812.10")),
        ("error_dialog", 0, replace(base, 2, declined)),
        ("near_miss_number", 0, sub(base, "$250.00", "$25.00"))])})

    # 6. sign-up (screen recording)
    base = clip("screen", [
        screen("Create account", ["Name: Dana Kim", "Email: dana@mail.com", "Plan: Free"], "Sign up", frames=10),
        screen("Verify email", ["Code sent to dana@mail.com", "Enter code: 4819"], "Verify", frames=10),
        screen("Welcome", ["Welcome, Dana!", "Account ID 30917", "Free plan active"], "Get started", bar="green",
               frames=12)])
    in_use = screen("Create account", ["Name: Dana Kim", "Email: dana@mail.com"], bar="red", frames=12,
                    dialog={"title": "Sign-up failed", "text": "Email already in use", "colour": "red"})
    out.append({"group": "signup", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A screen recording of signing up for a free plan, ending on "Welcome, Dana!".', None),
        ("faithful_plain", 1, "A recording of Dana Kim creating an account and verifying her email.", None),
        ("wrong_outcome", 0, 'A screen recording of signing up for a free plan, ending on "Welcome, Dana!".',
         replace(base, 2, in_use)),
        ("missing_step", 0, "A recording of Dana Kim creating an account and verifying her email.", drop(base, 1))],
        "factual": [
        ("true_quoted", 1, 'The new account ID is 30917 and the "Free plan" is active.', None),
        ("true_order", 1, 'A code was sent to dana@mail.com before the "Welcome, Dana!" screen.', None),
        ("near_miss_number", 0, "The account ID shown is 39017.", None),
        ("never_shown", 0, 'The user picked the "Pro plan".', None)],
        "geval": ("The recording shows a new account being created and the email verified.", [
        ("satisfies", 1, None),
        ("satisfies_other_user", 1, sub(base, "Dana Kim", "Sam Lee", "dana@", "sam@", "Dana!", "Sam!")),
        ("error_dialog", 0, replace(base, 2, in_use)),
        ("wrong_outcome", 0, replace(base, 2, screen("Verify email", ["Code sent to dana@mail.com"], bar="red",
                                                     frames=12, dialog={"title": "Invalid code",
                                                                        "text": "Try again", "colour": "red"})))])})

    # 7. quarterly results (slides)
    base = clip("slides", [
        slide("Q3 2024 results", ["Revenue up 12% to $4.2M", "Operating costs down 3%", "New customers: 1,850"],
              frames=16),
        slide("Next steps", ["Hire 6 engineers", "Open Berlin office"], frames=16)], accent="navy")
    out.append({"group": "q3-results", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A slide video: "Q3 2024 results" with revenue up 12% to $4.2M, then "Next steps".',
         None),
        ("faithful_plain", 1, "A short slide deck on the third-quarter results and the hiring plan for next quarter.",
         None),
        ("near_miss_number", 0, 'A slide video: "Q3 2024 results" with revenue up 12% to $4.2M, then "Next steps".',
         sub(base, "12%", "21%")),
        ("missing_step", 0, "A short slide deck on the third-quarter results and the hiring plan for next quarter.",
         drop(base, 1))],
        "factual": [
        ("true_quoted", 1, "Revenue grew 12% to $4.2M and the company gained 1,850 new customers.", None),
        ("true_order", 1, 'The "Q3 2024 results" slide comes first, then "Next steps".', None),
        ("near_miss_number", 0, "Revenue grew 21% to $4.2M.", None),
        ("wrong_order", 0, 'The deck opens with "Next steps" and ends with "Q3 2024 results".', None)],
        "geval": ("The slides report Q3 2024 revenue growth of 12% and then the next steps.", [
        ("satisfies", 1, None),
        ("satisfies_title_slide", 1, insert(base, 0, slide("Quarterly review", ["Finance team", "October 2024"],
                                                            frames=8))),
        ("near_miss_number", 0, sub(base, "12%", "21%")),
        ("wrong_order", 0, swap(base, 0, 1))])})

    # 8. router reset training (slides, order matters)
    base = clip("slides", [
        slide("Step 1", ["Unplug the router"], frames=8), slide("Step 2", ["Wait 30 seconds"], frames=8),
        slide("Step 3", ["Plug it back in"], frames=8), slide("Step 4", ["Wait for the green light"], frames=8)],
        accent="teal")
    reordered = sub(base, "Wait 30 seconds", "@", "Plug it back in", "Wait 30 seconds")
    reordered = sub(reordered, "@", "Plug it back in")
    out.append({"group": "router-reset", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'Training slides, in order: "Unplug the router", "Wait 30 seconds", "Plug it back in".',
         None),
        ("faithful_plain", 1, "A how-to slideshow on restarting a home router, waiting 30 seconds before plugging it "
                              "back in.", None),
        ("wrong_order", 0, 'Training slides, in order: "Unplug the router", "Wait 30 seconds", "Plug it back in".',
         reordered),
        ("missing_step", 0, "A how-to slideshow on restarting a home router, waiting 30 seconds before plugging it "
                            "back in.", sub(drop(base, 1), "Step 3", "Step 2", "Step 4", "Step 3"))],
        "factual": [
        ("true_quoted", 1, "The slides say to wait 30 seconds after unplugging the router.", None),
        ("true_detail", 1, 'Step 4 says to "Wait for the green light".', None),
        ("wrong_figure", 0, "The slides say to wait 60 seconds before plugging it back in.", None),
        ("wrong_order", 0, 'Step 1 is "Plug it back in".', None)],
        "geval": ("The slides give the router reset steps in the right order: unplug, wait 30 seconds, plug back in.",
                  [("satisfies", 1, None),
                   ("satisfies_intro", 1, insert(base, 0, slide("Router reset", ["Four steps, two minutes"],
                                                                 frames=6))),
                   ("wrong_order", 0, reordered),
                   ("near_miss_number", 0, sub(base, "Wait 30 seconds", "Wait 3 seconds"))])})

    # 9. fire safety (slides)
    base = clip("slides", [
        slide("Fire safety", ["Leave by the nearest exit", "Do not use the lifts", "Meet at car park C"], frames=16),
        slide("Fire wardens", ["Floor 1: Sam Patel", "Floor 2: Ana Ruiz", "Emergency: call 112"], frames=16)],
        accent="red")
    out.append({"group": "fire-safety", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'Safety induction slides saying "Do not use the lifts" and "Meet at car park C".', None),
        ("faithful_plain", 1, "An induction slide video telling staff where to meet after a fire alarm and naming "
                              "the wardens.", None),
        ("near_miss_text", 0, 'Safety induction slides saying "Do not use the lifts" and "Meet at car park C".',
         sub(base, "car park C", "car park B")),
        ("negation_dropped", 0, "An induction slide video telling staff where to meet after a fire alarm and naming "
                                "the wardens.", sub(base, "Do not use the lifts", "Use the lifts"))],
        "factual": [
        ("true_quoted", 1, "The wardens are Sam Patel and Ana Ruiz, and the emergency number is 112.", None),
        ("true_quoted", 1, 'Staff must "Meet at car park C" and must not use the lifts.', None),
        ("wrong_figure", 0, "The emergency number on the slide is 999.", None),
        ("negation_dropped", 0, 'Staff should "use the lifts" to leave quickly.', None)],
        "geval": ("The slides tell staff not to use the lifts and to meet at car park C.", [
        ("satisfies", 1, None),
        ("satisfies_reordered_slides", 1, swap(base, 0, 1)),
        ("near_miss_text", 0, sub(base, "car park C", "car park B")),
        ("negation_dropped", 0, sub(base, "Do not use the lifts", "Use the lifts"))])})

    # 10. product launch (slides)
    base = clip("slides", [
        slide("Introducing Nimbus 2", ["Launch: 14 March", "Price: $29/mo", "Storage: 200 GB"], frames=16),
        slide("Available in", ["US, UK and Canada"], frames=12)], accent="purple")
    out.append({"group": "product-launch", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A launch slide for "Nimbus 2" priced at $29/mo with 200 GB of storage.', None),
        ("faithful_plain", 1, "A product launch slide for the Nimbus 2 plan, launching 14 March.", None),
        ("wrong_number", 0, 'A launch slide for "Nimbus 2" priced at $29/mo with 200 GB of storage.',
         sub(base, "$29/mo", "$39/mo")),
        ("near_miss_number", 0, "A product launch slide for the Nimbus 2 plan, launching 14 March.",
         sub(base, "14 March", "4 March"))],
        "factual": [
        ("true_quoted", 1, "Nimbus 2 launches on 14 March at $29/mo with 200 GB of storage.", None),
        ("true_detail", 1, "It will be available in the US, UK and Canada.", None),
        ("wrong_figure", 0, "Nimbus 2 includes 500 GB of storage.", None),
        ("never_shown", 0, "It launches in the US, UK and Australia.", None)],
        "geval": ("The video announces Nimbus 2 at $29 a month, launching on 14 March.", [
        ("satisfies", 1, None),
        ("satisfies_questions_slide", 1, insert(base, -1, slide("Questions?", ["launch@nimbus.io"], frames=8))),
        ("wrong_number", 0, sub(base, "$29/mo", "$39/mo")),
        ("missing_fact", 0, sub(base, "Launch: 14 March", "Launch: date to be confirmed"))])})

    # 11. coffee recipe (captions over a photo)
    base = clip("captions", [
        caption("Grind 18 g of coffee"), caption("Heat water to 94 C"), caption("Pour 250 ml slowly"),
        caption("Steep for 4 minutes")], photo="coffee")
    out.append({"group": "coffee-recipe", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A pour-over tutorial with the captions "Heat water to 94 C" and "Pour 250 ml slowly".',
         None),
        ("faithful_plain", 1, "A coffee brewing clip captioned with the recipe: 18 g of coffee and 250 ml of water.",
         None),
        ("near_miss_number", 0, 'A pour-over tutorial with the captions "Heat water to 94 C" and "Pour 250 ml '
                                'slowly".', sub(base, "94 C", "49 C")),
        ("wrong_number", 0, "A coffee brewing clip captioned with the recipe: 18 g of coffee and 250 ml of water.",
         sub(base, "250 ml", "150 ml"))],
        "factual": [
        ("true_quoted", 1, "The captions say to grind 18 g of coffee and pour 250 ml of water.", None),
        ("true_order", 1, "The water is heated to 94 C before it is poured.", None),
        ("wrong_figure", 0, "The captions say to use 28 g of coffee.", None),
        ("scene_claim", 0, "The clip shows someone pouring milk into the coffee.", None)],
        "geval": ("The captions give a complete brewing recipe: 18 g of coffee, 250 ml of water at 94 C, steeped "
                  "for 4 minutes.", [
        ("satisfies", 1, None),
        ("brief_caption", 1, insert(replace(base, 3, caption("Steep for 4 minutes", brief=True)), -1,
                                    caption("Enjoy your coffee"))),
        ("missing_step", 0, drop(base, 3)),
        ("wrong_number", 0, sub(base, "250 ml", "150 ml"))])})

    # 12. pet adoption (captions over a photo, a badge)
    base = clip("captions", [
        caption("Meet Chelsea"), caption("She is 3 years old"), caption("She sleeps 16 hours a day"),
        caption("Adopt her today")], photo="chelsea", badge="ADOPT ME")
    out.append({"group": "cat-adoption", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'An adoption clip of a cat with an "ADOPT ME" badge and the caption "Meet Chelsea".',
         None),
        ("faithful_plain", 1, "A short cat adoption video saying the cat sleeps 16 hours a day.", None),
        ("wrong_text", 0, 'An adoption clip of a cat with an "ADOPT ME" badge and the caption "Meet Chelsea".',
         with_(base, badge="ADOPTED")),
        ("wrong_number", 0, "A short cat adoption video saying the cat sleeps 16 hours a day.",
         sub(base, "16 hours", "6 hours"))],
        "factual": [
        ("true_quoted", 1, "The captions introduce Chelsea and say she sleeps 16 hours a day.", None),
        ("true_colour", 1, 'A red "ADOPT ME" badge is shown in the corner.', None),
        ("wrong_figure", 0, "The captions say Chelsea is 13 years old.", None),
        ("wrong_colour", 0, "The badge in the corner is green.", None)],
        "geval": ("The clip presents Chelsea as a cat available for adoption.", [
        ("satisfies", 1, None),
        ("satisfies_contact", 1, insert(base, -1, caption("Call 555-0142"))),
        ("wrong_outcome", 0, sub(with_(base, badge="ADOPTED"), "Adopt her today", "Chelsea has found a home")),
        ("wrong_subject", 0, sub(base, "Meet Chelsea", "Meet Rex", "She is", "He is", "She sleeps", "He sleeps",
                                 "Adopt her today", "Adopt him today"))])})

    # 13. storm news (captions over a photo, a LIVE badge)
    base = clip("captions", [
        caption("BREAKING: Storm warning for Lisbon", frames=10), caption("Winds up to 90 km/h", frames=10),
        caption("Schools closed on Friday", frames=10)], photo="astronaut", badge="LIVE")
    out.append({"group": "storm-news", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A live news clip with the caption "Storm warning for Lisbon" and winds up to 90 km/h.',
         None),
        ("faithful_plain", 1, "A news bulletin clip warning of a storm in Lisbon, with schools closing on Friday.",
         None),
        ("near_miss_number", 0, 'A live news clip with the caption "Storm warning for Lisbon" and winds up to '
                                '90 km/h.', sub(base, "90 km/h", "60 km/h")),
        ("negation", 0, "A news bulletin clip warning of a storm in Lisbon, with schools closing on Friday.",
         sub(base, "Schools closed on Friday", "Schools open on Friday"))],
        "factual": [
        ("true_quoted", 1, "The ticker warns of winds up to 90 km/h and says schools are closed on Friday.", None),
        ("true_quoted", 1, 'The clip is marked "LIVE".', None),
        ("wrong_figure", 0, "Winds are expected up to 190 km/h.", None),
        ("never_shown", 0, 'The storm warning is for "Porto".', None)],
        "geval": ("The news clip warns viewers about the Lisbon storm and says schools are closed on Friday.", [
        ("satisfies", 1, None),
        ("satisfies_reordered", 1, swap(base, 1, 2)),
        ("negation", 0, sub(base, "Schools closed on Friday", "Schools open on Friday")),
        ("missing_fact", 0, drop(base, 2))])})

    # 14. summer sale (generated promo card)
    base = clip("card", [card(["SUMMER SALE"]), card(["50% OFF"]), card(["Ends Sunday"])], background="red",
                ink="white")
    out.append({"group": "summer-sale", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A promo video on a red background: "SUMMER SALE", then "50% OFF".', None),
        ("faithful_plain", 1, "A red promotional clip announcing a summer sale with half off everything.", None),
        ("wrong_number", 0, 'A promo video on a red background: "SUMMER SALE", then "50% OFF".',
         sub(base, "50% OFF", "15% OFF")),
        ("wrong_colour", 0, "A red promotional clip announcing a summer sale with half off everything.",
         with_(base, background="blue"))],
        "factual": [
        ("true_quoted", 1, 'White text on red announces a "SUMMER SALE" with 50% off.', None),
        ("true_unverifiable", 1, "The sale ends on Sunday.", None),
        ("wrong_figure", 0, "The sale offers 60% off.", None),
        ("wrong_colour", 0, "The promo is on a blue background.", None)],
        "geval": ("The promo announces a summer sale of 50% off.", [
        ("satisfies", 1, None),
        ("satisfies_other_colour", 1, with_(base, background="orange", ink="black")),
        ("wrong_text", 0, sub(base, "SUMMER SALE", "WINTER SALE")),
        ("near_miss_number", 0, sub(base, "50% OFF", "5% OFF"))])})

    # 15. flight ad (generated promo card)
    base = clip("card", [card(["NEW YORK TO PARIS"]), card(["From $399"]), card(["Book by 30 June"])],
                background="navy", ink="yellow")
    out.append({"group": "flight-ad", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'An airline ad reading "NEW YORK TO PARIS" from $399.', None),
        ("faithful_plain", 1, "An animated ad for cheap flights from New York to Paris, bookable until 30 June.", None),
        ("reordered_words", 0, 'An airline ad reading "NEW YORK TO PARIS" from $399.',
         sub(base, "NEW YORK TO PARIS", "PARIS TO NEW YORK")),
        ("near_miss_number", 0, "An animated ad for cheap flights from New York to Paris, bookable until 30 June.",
         sub(base, "30 June", "3 June"))],
        "factual": [
        ("true_quoted", 1, "Flights from New York to Paris start at $399; book by 30 June.", None),
        ("true_colour", 1, "Yellow text on a dark blue background.", None),
        ("near_miss_number", 0, "Fares start at $349.", None),
        ("reordered_words", 0, 'The ad is for flights "PARIS TO NEW YORK".', None)],
        "geval": ("The ad offers flights from New York to Paris from $399.", [
        ("satisfies", 1, None),
        ("satisfies_other_colour", 1, with_(base, background="teal", ink="white")),
        ("reordered_words", 0, sub(base, "NEW YORK TO PARIS", "PARIS TO NEW YORK")),
        ("wrong_number", 0, sub(base, "$399", "$999"))])})

    # 16. grand opening (generated promo card)
    base = clip("card", [card(["GRAND OPENING"]), card(["Saturday 10am"]), card(["12 Rose Street"])],
                background="blue", ink="white")
    out.append({"group": "grand-opening", "clip": base, "t2v": [
        ("faithful_quoted", 1, 'A video card on a blue background announcing the "GRAND OPENING" on Saturday at '
                               '10am.', None),
        ("faithful_plain", 1, "A short announcement for a shop opening at 12 Rose Street.", None),
        ("wrong_colour", 0, 'A video card on a blue background announcing the "GRAND OPENING" on Saturday at 10am.',
         with_(base, background="green")),
        ("near_miss_number", 0, "A short announcement for a shop opening at 12 Rose Street.",
         sub(base, "12 Rose", "21 Rose"))],
        "factual": [
        ("true_quoted", 1, "The grand opening is on Saturday at 10am at 12 Rose Street.", None),
        ("true_colour", 1, "The card shows white text on a blue background.", None),
        ("near_miss_number", 0, "The opening is on Saturday at 11am.", None),
        ("wrong_order", 0, 'The card first gives the address, then says "GRAND OPENING".', None)],
        "geval": ("The video announces the grand opening on Saturday at 10am.", [
        ("satisfies", 1, None),
        ("satisfies_other_colour", 1, with_(base, background="purple")),
        ("wrong_day", 0, sub(base, "Saturday", "Sunday")),
        ("near_miss_time", 0, sub(base, "10am", "10pm"))])})
    return out


# -- rows ----------------------------------------------------------------------------------------------

def rows() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in SETS}
    for scenario in scenarios():
        group, base = scenario["group"], place_brief(scenario["clip"])
        parts = {"text_to_video.jsonl": [(kind, label, {"prompt": text}, spec)
                                         for kind, label, text, spec in scenario["t2v"]],
                 "video_factual_consistency.jsonl": [(kind, label, {"output": text}, spec)
                                                     for kind, label, text, spec in scenario["factual"]],
                 "video_g_eval.jsonl": [(kind, label, {"rubric": scenario["geval"][0]}, spec)
                                        for kind, label, spec in scenario["geval"][1]]}
        for name, items in parts.items():
            split = split_of(name.removesuffix(".jsonl"), group)
            for n, (kind, label, fields, spec) in enumerate(items):
                spec = base if spec is None else place_brief(spec)
                out[name].append({"id": f"{SETS[name]}-{group}-{n}-{'pass' if label else 'fail'}-{kind}",
                                  "metric": SETS[name], "group": group, "split": split, "kind": kind,
                                  "label": label, **fields, "clip_id": clip_id(spec), "clip": spec})
    return out


def all_clips() -> dict[str, dict[str, Any]]:
    return {row["clip_id"]: row["clip"] for items in rows().values() for row in items}


# -- rendering -----------------------------------------------------------------------------------------

def _bgr(name: str) -> tuple[int, int, int]:
    r, g, b = COLOURS[name]
    return (b, g, r)


def _text(image, text: str, origin: tuple[int, int], scale: float, colour: tuple[int, int, int],
          thickness: int = 2) -> None:
    import cv2

    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


def _fit(text: str, width: int, scale: float, thickness: int) -> tuple[float, int]:
    """The largest scale ≤ ``scale`` at which ``text`` fits ``width`` pixels, and its pixel width."""
    import cv2

    while True:
        (w, _h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        if w <= width or scale <= 0.4:
            return scale, w
        scale -= 0.05


def _photo(name: str, width: int, height: int):
    import cv2
    import numpy as np
    from skimage import data

    rgb = getattr(data, name)()
    if rgb.ndim == 2:
        rgb = np.stack([rgb] * 3, axis=-1)
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    scale = max((width + 80) / bgr.shape[1], (height + 40) / bgr.shape[0])
    return cv2.resize(bgr, (round(bgr.shape[1] * scale), round(bgr.shape[0] * scale)), interpolation=cv2.INTER_AREA)


def _screen(image, scene: dict[str, Any], t: int) -> None:
    import cv2
    import numpy as np

    w, h = image.shape[1], image.shape[0]
    image[:] = _bgr("light")
    cv2.rectangle(image, (0, 0), (w, 56), _bgr(scene["bar"]), -1)
    _text(image, scene["app"], (20, 38), 0.9, _bgr("white"))
    for i, line in enumerate(scene["lines"]):
        _text(image, line, (32, 104 + 46 * i), 0.85, _bgr("black"))
    if scene.get("button"):
        scale, tw = _fit(scene["button"], 300, 0.85, 2)
        cv2.rectangle(image, (w // 2 - 170, h - 78), (w // 2 + 170, h - 28), (250, 120, 30), -1)
        _text(image, scene["button"], (w // 2 - tw // 2, h - 43), scale, _bgr("white"))
    if scene.get("dialog"):
        d = scene["dialog"]
        overlay = image.copy()
        cv2.rectangle(overlay, (0, 0), (w, h), (0, 0, 0), -1)
        cv2.addWeighted(overlay, 0.35, image, 0.65, 0, image)
        cv2.rectangle(image, (110, 110), (w - 110, 270), _bgr("white"), -1)
        cv2.rectangle(image, (110, 110), (w - 110, 270), _bgr(d["colour"]), 4)
        _text(image, d["title"], (140, 165), _fit(d["title"], w - 280, 1.0, 2)[0], _bgr(d["colour"]))
        _text(image, d["text"], (140, 225), _fit(d["text"], w - 280, 0.8, 2)[0], _bgr("black"))
    # the mouse pointer, moving
    x, y = 120 + (13 * t) % 400, 150 + (7 * t) % 150
    pointer = np.array([[x, y], [x, y + 22], [x + 6, y + 16], [x + 14, y + 20]], np.int32)
    cv2.fillPoly(image, [pointer], _bgr("black"))


def _slide(image, scene: dict[str, Any], accent: str) -> None:
    import cv2

    w = image.shape[1]
    image[:] = _bgr("white")
    cv2.rectangle(image, (0, 0), (w, 76), _bgr(accent), -1)
    _text(image, scene["title"], (28, 50), _fit(scene["title"], w - 56, 1.2, 3)[0], _bgr("white"), 3)
    for i, bullet in enumerate(scene["bullets"]):
        cv2.circle(image, (44, 132 + 62 * i), 6, _bgr("black"), -1)
        _text(image, bullet, (64, 142 + 62 * i), _fit(bullet, w - 90, 1.0, 2)[0], _bgr("black"))


def _captioned(image, scene: dict[str, Any], photo, t: int, badge: str | None) -> None:
    import cv2

    w, h = image.shape[1], image.shape[0]
    x, y = min(photo.shape[1] - w, 2 * t), (photo.shape[0] - h) // 2
    image[:] = photo[y:y + h, x:x + w]
    scale, tw = _fit(scene["caption"], w - 60, 1.0, 2)
    cv2.rectangle(image, (w // 2 - tw // 2 - 14, h - 66), (w // 2 + tw // 2 + 14, h - 22), (0, 0, 0), -1)
    _text(image, scene["caption"], (w // 2 - tw // 2, h - 34), scale, _bgr("white"))
    if badge:
        bs, bw = _fit(badge, 260, 0.8, 2)
        cv2.rectangle(image, (16, 16), (40 + bw, 56), _bgr("red"), -1)
        _text(image, badge, (28, 46), bs, _bgr("white"))


def _card(image, scene: dict[str, Any], background: str, ink: str, t: int) -> None:
    w, h = image.shape[1], image.shape[0]
    image[:] = _bgr(background)
    lines = scene["lines"]
    for i, line in enumerate(lines):
        scale, tw = _fit(line, w - 80, 2.0, 4)
        y = h // 2 + 24 - 40 * (len(lines) - 1) + 80 * i
        _text(image, line, (w // 2 - tw // 2 + (t % 6) - 3, y), scale, _bgr(ink), 4)


def frames(spec: dict[str, Any]) -> list[Any]:
    """The BGR frames of a clip spec."""
    import numpy as np

    w, h = spec["size"]
    photo = _photo(spec["photo"], w, h) if spec["kind"] == "captions" else None
    out, t = [], 0
    for scene in spec["scenes"]:
        for _ in range(scene["frames"]):
            image = np.zeros((h, w, 3), np.uint8)
            if spec["kind"] == "screen":
                _screen(image, scene, t)
            elif spec["kind"] == "slides":
                _slide(image, scene, spec["accent"])
            elif spec["kind"] == "captions":
                _captioned(image, scene, photo, t, spec.get("badge"))
            elif spec["kind"] == "card":
                _card(image, scene, spec["background"], spec["ink"], t)
            else:
                raise ValueError(f"unknown clip kind {spec['kind']!r}")
            out.append(image)
            t += 1
    return out


def render(spec: dict[str, Any]) -> bytes:
    """The clip as a Motion JPEG AVI (quality 95), the same bytes every time with the same OpenCV."""
    import cv2

    images = frames(spec)
    handle, path = tempfile.mkstemp(suffix=".avi")
    os.close(handle)
    try:
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), float(spec["fps"]), tuple(spec["size"]))
        writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
        for image in images:
            writer.write(image)
        writer.release()
        return Path(path).read_bytes()
    finally:
        os.unlink(path)


def main() -> None:
    for name, items in rows().items():
        (HERE / name).write_text("".join(json.dumps(r) + "\n" for r in items))
    if "--avi" in sys.argv:
        folder = Path(sys.argv[sys.argv.index("--avi") + 1])
        folder.mkdir(parents=True, exist_ok=True)
        for key, spec in all_clips().items():
            (folder / f"{key}.avi").write_bytes(render(spec))


if __name__ == "__main__":
    main()
