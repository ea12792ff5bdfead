"""Compile locale/*/LC_MESSAGES/*.po into .mo files with polib (pure Python, no gettext needed).

Same result as `manage.py compilemessages`, which needs GNU gettext's msgfmt; `make` uses this so a
fresh machine needs nothing beyond Python.
"""

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    count = 0
    for po_path in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        count += 1
    print(f"compiled {count} message catalogue(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
