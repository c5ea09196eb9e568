#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The test's side of a real Home Assistant core (HomeAssistantDiscoveryTests; run with the venv's
# python, scripts/home-assistant.sh installs it):
#
#   prepare DIR BROKER_PORT USER PASSWORD HTTP_PORT  a configuration directory: http and api only (no
#       frontend, so no onboarding), the MQTT integration's config entry on the test's broker, and
#       a local login test/test — written before the start, rather than driven through the
#       onboarding and config-flow APIs, because that costs no extra start and no admin token
#   token URL        a login through the public auth API (login flow, then the code for a token)
#   states URL TOKEN the entities' states as JSON (GET /api/states)
#   press URL TOKEN ENTITY  presses a button entity (POST /api/services/button/press)
#   update-state CONFIG STATE  the update entity's state JSON as Home Assistant renders it from
#       the bridge's STATE with the value_template of its CONFIG, checked against 2024.11's
#       MQTT_JSON_UPDATE_SCHEMA (which 2024.3.3 does not have: copied here from that release's
#       components/mqtt/update.py, with 2024.3.3's own config validators)
#
# Standard library only, besides bcrypt (a Home Assistant dependency) for the stored password.
import base64
import json
import os
import sys
import urllib.parse
import urllib.request

LOGIN, PASSWORD = "test", "test"


def prepare(directory, broker_port, user, password, http_port):
    import bcrypt

    os.makedirs(os.path.join(directory, ".storage"), exist_ok=True)
    with open(os.path.join(directory, "configuration.yaml"), "w") as f:
        f.write(
            "homeassistant:\n  name: SplashHUD test\n  time_zone: UTC\n  unit_system: metric\n"
            "  latitude: 0\n  longitude: 0\n  elevation: 0\n"
            f"http:\n  server_host: 127.0.0.1\n  server_port: {http_port}\napi:\n"
            "logger:\n  default: warning\n  logs:\n    homeassistant.components.mqtt: info\n"
        )
    entry = {
        "entry_id": "splashhudtestmqtt", "version": 1, "minor_version": 1, "domain": "mqtt", "title": "test broker",
        "data": {"broker": "127.0.0.1", "port": int(broker_port), "username": user, "password": password,
                 "discovery": True, "discovery_prefix": "homeassistant"},
        "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False,
        "source": "user", "unique_id": None, "disabled_by": None,
    }
    write_store(directory, "core.config_entries", {"entries": [entry]})
    hashed = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4))
    write_store(directory, "auth_provider.homeassistant",
                {"users": [{"username": LOGIN, "password": base64.b64encode(hashed).decode()}]})


def write_store(directory, key, data):
    with open(os.path.join(directory, ".storage", key), "w") as f:
        json.dump({"version": 1, "minor_version": 1, "key": key, "data": data}, f)


def post(url, body, form=False):
    data = urllib.parse.urlencode(body).encode() if form else json.dumps(body).encode()
    kind = "application/x-www-form-urlencoded" if form else "application/json"
    request = urllib.request.Request(url, data=data, headers={"Content-Type": kind})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def token(url):
    client = url + "/"
    flow = post(url + "/auth/login_flow", {"client_id": client, "handler": ["homeassistant", None], "redirect_uri": client})
    done = post(url + "/auth/login_flow/" + flow["flow_id"], {"username": LOGIN, "password": PASSWORD, "client_id": client})
    tokens = post(url + "/auth/token", {"grant_type": "authorization_code", "code": done["result"], "client_id": client}, form=True)
    print(tokens["access_token"])


def states(url, access):
    request = urllib.request.Request(url + "/api/states", headers={"Authorization": "Bearer " + access})
    with urllib.request.urlopen(request, timeout=10) as r:
        print(json.dumps(json.load(r)))


def press(url, access, entity):
    request = urllib.request.Request(url + "/api/services/button/press", data=json.dumps({"entity_id": entity}).encode(),
                                     headers={"Authorization": "Bearer " + access, "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()


def update_state(config, state):
    import jinja2
    import voluptuous as vol
    from homeassistant.helpers import config_validation as cv

    schema = vol.Schema({
        vol.Optional("installed_version"): cv.string,
        vol.Optional("latest_version"): cv.string,
        vol.Optional("title"): cv.string,
        vol.Optional("release_summary"): cv.string,
        vol.Optional("release_url"): cv.url,
        vol.Optional("entity_picture"): cv.url,
        vol.Optional("in_progress"): cv.boolean,
        vol.Optional("update_percentage"): vol.Any(vol.Range(min=0, max=100), None),
    })
    template = json.loads(config)["value_template"]
    rendered = jinja2.Environment().from_string(template).render(value_json=json.loads(state))
    print(json.dumps(schema(json.loads(rendered))))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"prepare": prepare, "token": token, "states": states, "press": press, "update-state": update_state}[command](*args)
