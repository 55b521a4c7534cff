"""No sign-in path sends the browser to another site, however ``next`` is encoded.

Each value of the corpus is tried in the three ways a sign-in ends (the
sign-in form's GET when already signed in, a password sign-in, a mailed
link's POST); the Location must be a path of this site as a browser would
read it (tabs and newlines dropped, backslashes taken as slashes), and no
value may give a 500.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest
from werkzeug.security import generate_password_hash

from pbem.server.web.auth import make_login_token
from pbem.server.web.redirects import local_path

from websupport import ANNA, Site, csrf

HOSTILE = [
    "//evil.example", "///evil.example", "////evil.example", "https://evil.example/", "http:evil.example",
    "/\t/evil.example", "/%09/evil.example", "/\n/evil.example", "/%0A/x", "/%0D%0A/x", "/\r/evil.example",
    "/\\evil.example", "\\\\evil.example", "/%5Cevil.example", "/%5C%5Cevil.example", "/\\/evil.example",
    "/%2F/evil.example", "/%2f%2fevil.example", "%2F%2Fevil.example", "/%252F/evil.example",
    "/%25252F/evil.example", "/ /evil.example", "/%20/evil.example", " //evil.example", "\t//evil.example",
    "/\u2215evil.example", "/\uff0fevil.example", "/\u3002evil", "/\u2044evil.example", "//evil\u3002example",
    "/\x00/evil.example", "/%00/evil.example", "javascript:alert(1)", "/javascript:alert(1)//", "data:text/html,x",
    "//%65vil.example", "/.//evil.example", "https:/evil.example", "/\u200b/evil.example", "\u2028//evil",
    "/%E2%80%A8/evil", "/" + "a" * 5000,
]
FINE = ["/", "/games/3", "/games/3?side=austria", "/games/3/reports/0?side=france&format=text", "/password"]


def browser_reads(location: str) -> str:
    """What a lenient browser makes of a Location: no tabs or newlines, backslashes as slashes."""
    return "".join(c for c in location if c not in "\t\n\r").replace("\\", "/")


def assert_local(location: str) -> None:
    assert location and all(0x21 <= ord(c) <= 0x7E for c in location), location
    for text in (location, unquote(location), unquote(unquote(location))):
        read = browser_reads(text)
        assert read.startswith("/") and not read.startswith("//"), location
        assert not urlsplit(read).netloc and not urlsplit(read).scheme, location


@pytest.mark.parametrize("value", HOSTILE + FINE)
def test_local_path_refuses_every_way_out(value):
    got = local_path(value)
    if value in FINE:
        assert got == value
    elif got is not None:
        assert_local(got)


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    site.store.set_password_hash(ANNA, generate_password_hash("right password"))
    yield site
    site.store.close()


def test_no_sign_in_path_redirects_off_site(site):
    signed_in = site.client(ANNA)
    for value in HOSTILE + FINE:
        # 1. the sign-in form, when already signed in
        response = signed_in.get("/login", query_string={"next": value})
        assert response.status_code == 302, (value, response.status_code)
        assert_local(response.location)
        # 2. a password sign-in
        client = site.client()
        form = client.get("/login", query_string={"next": value})
        assert form.status_code == 200, (value, form.status_code)
        response = client.post("/login", query_string={"next": value},
                               data={"csrf_token": csrf(form.text), "email": ANNA, "password": "right password",
                                     "action": "password"})
        assert response.status_code == 302, (value, response.status_code)
        assert_local(response.location)
        # 3. a mailed link
        client = site.client()
        token = make_login_token(site.store, ANNA, site.service.now())
        form = client.get(f"/login/{token}")
        response = client.post(f"/login/{token}", data={"csrf_token": csrf(form.text), "next": value})
        assert response.status_code == 302, (value, response.status_code)
        assert_local(response.location)
        if value in FINE:
            assert response.location == value
