"""Media made in the tests: a real PNG and WAV (zlib/struct/wave), and the leading bytes of every other
format the sniffer knows (it reads signatures, so a header is a faithful sample)."""

from __future__ import annotations

import io
import random
import struct
import wave
import zlib


def png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30), noise: bool = False) -> bytes:
    """A valid RGB PNG; ``noise`` fills it with seeded random pixels (so it does not compress)."""
    rows = bytearray()
    rand = random.Random(0)
    for _ in range(height):
        rows.append(0)
        rows += rand.randbytes(width * 3) if noise else bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(bytes(rows), 1)) \
        + _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def wav(seconds: float = 0.05, rate: int = 8000) -> bytes:
    """A valid mono 16-bit WAV of silence."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(seconds * rate))
    return buffer.getvalue()


def _ftyp(major: bytes, *compatible: bytes) -> bytes:
    body = major + b"\x00\x00\x02\x00" + b"".join(compatible)
    return struct.pack(">I", 8 + len(body)) + b"ftyp" + body


def _hdlr(handler: bytes) -> bytes:
    body = b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00" + handler + b"\x00" * 12 + b"name\x00"
    return struct.pack(">I", 8 + len(body)) + b"hdlr" + body


def _ogg(packet: bytes) -> bytes:
    return b"OggS\x00\x02" + b"\x00" * 20 + b"\x01" + bytes([len(packet)]) + packet


def _ebml(doctype: bytes, track_type: int) -> bytes:
    return b"\x1a\x45\xdf\xa3\x9f\x42\x82" + bytes([0x80 | len(doctype)]) + doctype + b"\x00" * 8 \
        + b"\x16\x54\xae\x6b\xae\x83\x81" + bytes([track_type]) + b"\x00" * 8


# name: (bytes, kind, mime)
SAMPLES: dict[str, tuple[bytes, str, str]] = {
    "png": (png(), "image", "image/png"),
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00" + b"\x00" * 32, "image", "image/jpeg"),
    "gif87": (b"GIF87a\x01\x00\x01\x00\x00\x00\x00;", "image", "image/gif"),
    "gif89": (b"GIF89a\x01\x00\x01\x00\x80\x00\x00;", "image", "image/gif"),
    "webp": (b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 24, "image", "image/webp"),
    "bmp": (b"BM" + struct.pack("<IHHI", 70, 0, 0, 54) + struct.pack("<I", 40) + b"\x00" * 36, "image", "image/bmp"),
    "tiff_le": (b"II*\x00\x08\x00\x00\x00" + b"\x00" * 16, "image", "image/tiff"),
    "tiff_be": (b"MM\x00*\x00\x00\x00\x08" + b"\x00" * 16, "image", "image/tiff"),
    "avif": (_ftyp(b"avif", b"mif1", b"miaf"), "image", "image/avif"),
    "heic": (_ftyp(b"heic", b"mif1"), "image", "image/heic"),
    "wav": (wav(), "audio", "audio/wav"),
    "mp3_id3": (b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x64" + b"\x00" * 32, "audio", "audio/mpeg"),
    "mp3_sync": (b"\xff\xfb\x90\x64" + b"\x00" * 60, "audio", "audio/mpeg"),
    "aac_adts": (b"\xff\xf1\x50\x80\x02\x1f\xfc" + b"\x00" * 32, "audio", "audio/aac"),
    "flac": (b"fLaC\x00\x00\x00\x22" + b"\x00" * 34, "audio", "audio/flac"),
    "ogg_vorbis": (_ogg(b"\x01vorbis" + b"\x00" * 22), "audio", "audio/ogg"),
    "ogg_opus": (_ogg(b"OpusHead\x01\x01" + b"\x00" * 9), "audio", "audio/ogg"),
    "ogg_theora": (_ogg(b"\x80theora\x03\x02" + b"\x00" * 30), "video", "video/ogg"),
    "m4a": (_ftyp(b"M4A ", b"M4A ", b"mp42", b"isom") + b"\x00" * 16, "audio", "audio/mp4"),
    "mp4_generic_audio": (_ftyp(b"isom", b"iso2", b"mp41") + _hdlr(b"soun"), "audio", "audio/mp4"),
    "mp4_video": (_ftyp(b"isom", b"iso2", b"avc1", b"mp41") + _hdlr(b"vide") + _hdlr(b"soun"), "video", "video/mp4"),
    "mp4_m4v": (_ftyp(b"M4V ", b"M4V ", b"isom"), "video", "video/mp4"),
    "mov": (_ftyp(b"qt  ", b"qt  "), "video", "video/quicktime"),
    "3gp": (_ftyp(b"3gp4", b"isom"), "video", "video/3gpp"),
    "webm_video": (_ebml(b"webm", 1), "video", "video/webm"),
    "webm_audio": (_ebml(b"webm", 2), "audio", "audio/webm"),
    "mkv": (_ebml(b"matroska", 1), "video", "video/x-matroska"),
    "avi": (b"RIFF\x24\x00\x00\x00AVI LIST" + b"\x00" * 24, "video", "video/x-msvideo"),
}
