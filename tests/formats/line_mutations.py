"""The line mutations both readers' robustness tests draw (byte flips, cut, shifted, dropped, doubled, swapped
and extended lines, another encoding): one strategy, each reader's test names the kinds that fit its
format."""

from collections.abc import Callable

from hypothesis import strategies as st


@st.composite
def mutated(
    draw,
    files: list[bytes],
    kinds: tuple[str, ...],
    codecs: tuple[str, ...],
    reencode: Callable[[bytes, str], bytes],
) -> bytes:
    """One of ``files`` with 1–4 mutations; ``reencode(data, codec)`` writes the whole file in another
    encoding (and ends the mutating)."""
    lines = bytearray(draw(st.sampled_from(files))).split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(kinds))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if kind == "flip" and line:
            j = draw(st.integers(0, len(line) - 1))
            line = line[:j] + bytes([draw(st.integers(0, 255))]) + line[j + 1 :]
        elif kind == "truncate":
            line = line[: draw(st.integers(0, max(len(line) - 1, 0)))]
        elif kind == "shift":
            j = draw(st.integers(0, len(line)))
            line = line[:j] + b" " + line[j:] if draw(st.booleans()) else line[:j] + line[j + 1 :]
        elif kind == "drop":
            lines.pop(i)
            continue
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        elif kind == "insert":
            line = line + draw(st.binary(max_size=12))
        elif kind == "encoding":
            return reencode(bytes(b"\n".join(lines)), draw(st.sampled_from(codecs)))
        lines[i] = line
    return bytes(b"\n".join(lines))
