"""A club's logo, from the uploaded file to the bytes kept in the database.

Only PNG and JPEG are taken, recognised by their content (never by the file's name or
the browser's word), at most `MAX_UPLOAD_BYTES` and `MAX_PIXELS`. Pillow decodes the
image fully and encodes it again, at most `MAX_SIDE` pixels on its longer side: what is
stored and served is an image Atout wrote itself, without the upload's metadata (a
photo's EXIF, its GPS position) or anything hidden after the picture. A file that is
not such an image is refused with a message for the form, never an error page.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from typing import IO

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
# Above this a decoded image would take more memory than a logo deserves (~100 MB in RGBA).
MAX_PIXELS = 25_000_000
MAX_SIDE = 512
FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg"}


@dataclass(frozen=True, slots=True)
class LogoImage:
    """A logo ready to store: re-encoded bytes, their type and size, and a short version."""

    data: bytes
    content_type: str
    width: int
    height: int

    @property
    def version(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:12]


def _refuse(message: str) -> ValidationError:
    return ValidationError({"logo": [message]})


def read_logo(upload: IO[bytes], size: int | None = None) -> LogoImage:
    """The logo in `upload` (a PNG or a JPEG), re-encoded; ValidationError keyed "logo" otherwise."""
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise _refuse(_("The logo is too large: at most 2 MB."))
    raw = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise _refuse(_("The logo is too large: at most 2 MB."))
    not_an_image = _("This file is not a PNG or JPEG image.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw), formats=list(FORMATS)) as image:
                kind = image.format or ""
                if kind not in FORMATS:
                    raise _refuse(not_an_image)
                if image.width * image.height > MAX_PIXELS:
                    raise _refuse(_("The logo has too many pixels: send a smaller image."))
                image.load()
                return _encode(image, kind)
    except ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _refuse(not_an_image) from None
    except (OSError, ValueError, SyntaxError, EOFError):
        # A truncated or corrupt file: Pillow says so in one of these.
        raise _refuse(_("This image is damaged: save it again and send it anew.")) from None


def _encode(image: Image.Image, kind: str) -> LogoImage:
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    if kind == "JPEG":
        image.convert("RGB").save(out, format="JPEG", quality=88, optimize=True)
    else:
        keep = image if image.mode in {"RGB", "RGBA", "L", "LA", "P"} else image.convert("RGBA")
        keep.save(out, format="PNG", optimize=True)
    return LogoImage(out.getvalue(), FORMATS[kind], image.width, image.height)
