"""The type of a medium from its content (magic bytes), never from its name.

Recognised: PNG, JPEG, GIF, WEBP, BMP, TIFF, AVIF/HEIC (images); WAV, MP3, AAC (ADTS), FLAC, OGG,
M4A (audio); MP4/MOV/3GP, WEBM/MKV, AVI, OGG with Theora (video).
"""

from __future__ import annotations

from dataclasses import dataclass

HEAD_BYTES = 64 * 1024  # enough for every signature, an MP4's ftyp and a WebM's track list

_BMP_HEADER_SIZES = frozenset({12, 16, 40, 52, 56, 64, 108, 124})
_AUDIO_BRANDS = frozenset({b"M4A ", b"M4B ", b"M4P ", b"F4A ", b"F4B "})
_IMAGE_BRANDS = {b"avif": ("image/avif", "AVIF"), b"avis": ("image/avif", "AVIF"), b"heic": ("image/heic", "HEIC"),
                 b"heix": ("image/heic", "HEIC"), b"mif1": ("image/heif", "HEIF"), b"msf1": ("image/heif", "HEIF")}
_VIDEO_BRANDS = frozenset({b"M4V ", b"M4VH", b"M4VP", b"qt  ", b"avc1", b"F4V ", b"F4P "})
_OGG_VIDEO_CODECS = (b"\x80theora", b"fishead")  # Theora; a Skeleton stream heads a video file


@dataclass(frozen=True, slots=True)
class Sniffed:
    """What the content is: ``kind`` (image/audio/video), ``mime``, a short ``label`` (``PNG``), and
    whether the bytes seen were enough to be ``certain`` of the kind (an MP4 with a generic brand whose
    track list was not among them is taken as video, uncertainly)."""

    kind: str
    mime: str
    label: str
    certain: bool = True


def sniff(data: bytes) -> Sniffed | None:
    """The medium's type from its first bytes, or None when no known signature matches.

    Algorithm: fixed signatures first (PNG ``\\x89PNG``, JPEG ``FF D8 FF``, GIF87a/89a, RIFF with
    WEBP/WAVE/``AVI `` form types, ``BM`` with a valid DIB header size, TIFF ``II*\\0``/``MM\\0*``,
    ``fLaC``, ``OggS``, ``ID3``, EBML ``1A 45 DF A3``); an ISO-BMFF ``ftyp`` box by its major brand
    (M4A/M4B/M4P → audio, AVIF/HEIC → image, else by the handler types of its tracks: ``soun`` only →
    audio, otherwise video); an Ogg stream by its first codec (Theora → video, else audio); a Matroska/
    WebM file by its track types (TrackType 1 video, 2 audio); last, an MPEG audio frame sync
    (11 set bits, a valid layer, bitrate and sample rate) → MP3, or an ADTS header → AAC.
    """
    head = data[:16]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return Sniffed("image", "image/png", "PNG")
    if head.startswith(b"\xff\xd8\xff"):
        return Sniffed("image", "image/jpeg", "JPEG")
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return Sniffed("image", "image/gif", "GIF")
    if head[:4] == b"RIFF" and len(head) >= 12:
        return _riff(head[8:12])
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return Sniffed("image", "image/tiff", "TIFF")
    if head[:2] == b"BM" and len(data) >= 18 and int.from_bytes(data[14:18], "little") in _BMP_HEADER_SIZES:
        return Sniffed("image", "image/bmp", "BMP")
    if head[:4] == b"fLaC":
        return Sniffed("audio", "audio/flac", "FLAC")
    if head[:4] == b"OggS":
        return _ogg(data)
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return _ebml(data)
    if head[4:8] == b"ftyp":
        return _iso_bmff(data)
    if head[:3] == b"ID3":
        return Sniffed("audio", "audio/mpeg", "MP3")
    return _mpeg_audio(head)


def _riff(form: bytes) -> Sniffed | None:
    if form == b"WEBP":
        return Sniffed("image", "image/webp", "WEBP")
    if form == b"WAVE":
        return Sniffed("audio", "audio/wav", "WAV")
    if form == b"AVI ":
        return Sniffed("video", "video/x-msvideo", "AVI")
    return None


def _ogg(data: bytes) -> Sniffed:
    first_packet = data[28:28 + 16]  # after the 27-byte page header and a one-entry segment table
    if any(first_packet.startswith(codec) for codec in _OGG_VIDEO_CODECS) or b"\x80theora" in data[:HEAD_BYTES]:
        return Sniffed("video", "video/ogg", "OGG")
    return Sniffed("audio", "audio/ogg", "OGG")


def _ebml(data: bytes) -> Sniffed:
    head = data[:HEAD_BYTES]
    webm = b"webm" in head[:64]
    label, video_mime, audio_mime = ("WEBM", "video/webm", "audio/webm") if webm else \
        ("MKV", "video/x-matroska", "audio/x-matroska")
    # TrackType elements: ID 0x83, one-byte size 0x81, value 1 (video) or 2 (audio).
    if b"\x83\x81\x01" in head:
        return Sniffed("video", video_mime, label)
    if b"\x83\x81\x02" in head:
        return Sniffed("audio", audio_mime, label)
    return Sniffed("video", video_mime, label, certain=len(data) <= HEAD_BYTES)


def _iso_bmff(data: bytes) -> Sniffed:
    size = int.from_bytes(data[:4], "big")
    brands = [data[8:12]] + [data[i:i + 4] for i in range(16, min(size, 64), 4)]
    major = brands[0]
    if major in _AUDIO_BRANDS:
        return Sniffed("audio", "audio/mp4", "M4A")
    for brand in brands:
        if brand in _IMAGE_BRANDS:
            mime, label = _IMAGE_BRANDS[brand]
            return Sniffed("image", mime, label)
    if major == b"qt  ":
        return Sniffed("video", "video/quicktime", "MOV")
    if major.startswith(b"3g"):
        return Sniffed("video", "video/3gpp", "3GP")
    if major in _VIDEO_BRANDS:
        return Sniffed("video", "video/mp4", "MP4")
    handlers = _track_handlers(data)
    if b"vide" in handlers:
        return Sniffed("video", "video/mp4", "MP4")
    if b"soun" in handlers:
        return Sniffed("audio", "audio/mp4", "M4A")
    return Sniffed("video", "video/mp4", "MP4", certain=False)


def _track_handlers(data: bytes) -> set[bytes]:
    """Handler types of the ``hdlr`` boxes (``hdlr``, version/flags, pre_defined, then the type)."""
    found = set()
    start = data.find(b"hdlr")
    while start != -1 and len(found) < 8:
        found.add(data[start + 12:start + 16])
        start = data.find(b"hdlr", start + 4)
    return found


def _mpeg_audio(head: bytes) -> Sniffed | None:
    if len(head) < 4 or head[0] != 0xFF or head[1] & 0xE0 != 0xE0:
        return None
    version, layer = (head[1] >> 3) & 0b11, (head[1] >> 1) & 0b11
    if layer == 0:  # ADTS (AAC): MPEG-2/4 sync with layer bits 00
        return Sniffed("audio", "audio/aac", "AAC") if head[1] & 0xF6 == 0xF0 else None
    bitrate, rate = head[2] >> 4, (head[2] >> 2) & 0b11
    if version == 0b01 or bitrate in (0, 0b1111) or rate == 0b11:
        return None
    return Sniffed("audio", "audio/mpeg", "MP3")


def describe_start(data: bytes) -> str:
    """The first bytes of unrecognised content, for an error message: ``starts with b'hello wo'``."""
    if not data:
        return "is empty"
    return f"starts with {data[:12]!r}"
