"""Errors of the UECda codec, saying whose fault they are (h11 style)."""

from __future__ import annotations


class UecdaProtocolError(Exception):
    """Base class: the conversation broke the 20070 protocol."""


class LocalProtocolError(UecdaProtocolError):
    """We tried to send something the protocol does not allow at this point."""


class RemoteProtocolError(UecdaProtocolError):
    """The peer sent something the protocol does not allow (or closed mid-message)."""
