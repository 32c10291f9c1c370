"""A waiver expires by the UTC date, whatever the machine's time zone (hunt1 F7): CI and
a laptop give the same answer at the same instant."""

import datetime as dt
import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, date_term, waiver_text


def _utc_today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()


# POSIX TZ strings (no tz database needed): 14 hours east of UTC, 12 hours west.
ZONES = {"<+14>-14": 14, "<-12>+12": -12}


@pytest.mark.parametrize("zone", ZONES)
def test_expiry_is_by_the_utc_date_not_the_local_one(tmp_path, zone):
    root = tmp_path / "w"
    shutil.copytree(FIXTURES / "rules" / "rule9-bad", root)
    env = {**os.environ, "TZ": zone}
    for _ in range(2):  # once more if UTC midnight passes while the check runs
        utc = _utc_today()
        local = dt.datetime.now(dt.timezone(dt.timedelta(hours=ZONES[zone]))).date()
        if local == utc:
            pytest.skip(f"{zone} has the UTC date at this hour")
        # Expiring on the earlier of the two dates: expired by the UTC date exactly when
        # the local date is the earlier one, and the other way round by the local date.
        expires = min(local, utc)
        (root / "waivers.ttl").write_text(waiver_text(date_term(expires.isoformat())), "utf-8")
        result = subprocess.run(
            [sys.executable, "-m", "anthology_kg", "--root", str(root), "check"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if _utc_today() == utc:
            break
    if local < utc:
        assert result.returncode == 1, result.stdout + result.stderr
        assert f"the waiver expired on {expires.isoformat()}" in result.stdout
    else:
        assert result.returncode == 0, result.stdout + result.stderr
        assert "0 violation(s), 0 warning(s), 1 waived" in result.stdout
