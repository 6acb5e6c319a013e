"""Sans-I/O GTP 2 (specs/gtp.md): the engine-side dispatcher, the controller side, and the
vertex / colour / score helpers both use."""

from protocols.gtp.common import (
    BLACK,
    COLUMNS,
    WHITE,
    GtpError,
    GtpSyntaxError,
    LocalProtocolError,
    RemoteProtocolError,
    Vertex,
    format_colour,
    format_score,
    format_vertex,
    parse_colour,
    parse_float,
    parse_int,
    parse_score,
    parse_vertex,
    preprocess,
)
from protocols.gtp.controller import Controller, Response
from protocols.gtp.engine import Command, Dispatcher, LineReader, format_response, parse_command

__all__ = [
    "BLACK", "COLUMNS", "WHITE", "Command", "Controller", "Dispatcher", "GtpError",
    "GtpSyntaxError", "LineReader", "LocalProtocolError", "RemoteProtocolError", "Response",
    "Vertex", "format_colour", "format_response", "format_score", "format_vertex",
    "parse_colour", "parse_command", "parse_float", "parse_int", "parse_score", "parse_vertex",
    "preprocess",
]
