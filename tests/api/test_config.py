"""service.config: every setting read in one place, its type checked, and the README's table the same list."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from service.config import BadSetting, Settings, phone_url

README = Path(__file__).resolve().parents[2] / "README.md"
CONFIG = Path(__file__).resolve().parents[2] / "service" / "config.py"


def test_unset_variables_give_the_defaults_and_set_ones_their_values():
    assert Settings.read({}) == Settings()
    read = Settings.read({"PORT": "9000", "REFEREE_API_KEY": " a, b ,", "REFEREE_PUBLIC_URL": "https://r.example/",
                          "REFEREE_HEAD_SECONDS": "2.5", "REFEREE_WORKERS": ""})
    assert (read.port, read.api_keys, read.public_url, read.head_seconds, read.workers) == \
        (9000, ("a", "b"), "https://r.example", 2.5, 2)


@pytest.mark.parametrize("name, value", [("REFEREE_WORKERS", "two"), ("PORT", "80.5"), ("REFEREE_BODY_SECONDS", "soon")])
def test_a_value_of_the_wrong_type_is_refused_with_the_variables_name(name, value):
    with pytest.raises(BadSetting, match=f"{name}='{value}' is not"):
        Settings.read({name: value})


def test_the_readme_lists_every_variable_the_service_reads_and_no_other():
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", README.read_text(encoding="utf-8"), re.M))
    read = set(re.findall(r'"((?:REFEREE_[A-Z_]+)|PORT)"', CONFIG.read_text(encoding="utf-8")))
    assert len(read) == len(fields(Settings))
    assert table == read


def test_a_phone_opens_the_public_url_or_this_machines_network_address_and_nothing_on_loopback():
    assert phone_url(Settings.read({})) is None
    assert phone_url(Settings.read({"REFEREE_PUBLIC_URL": "https://referee.example/"})) == "https://referee.example/"
    assert phone_url(Settings.read({"REFEREE_HOST": "192.168.1.20", "PORT": "9000"})) == "http://192.168.1.20:9000/"
    assert re.fullmatch(r"http://[^/:]+:8000/", phone_url(Settings.read({"REFEREE_HOST": "0.0.0.0"})))


def test_the_home_page_learns_where_phones_open_referee_with_its_qr_code(client, monkeypatch):
    assert client.get("/app/phone").status_code == 404, "listening on this machine only"
    monkeypatch.setenv("REFEREE_PUBLIC_URL", "https://referee.example")
    phone = client.get("/app/phone").get_json()
    assert phone["url"] == "https://referee.example/"
    assert phone["qr"].startswith("data:image/svg+xml")
