"""The sans-I/O GTP layer: exact bytes of the dispatcher, the controller, the helpers."""

from __future__ import annotations

import pytest

from protocols.gtp import (
    Controller,
    Dispatcher,
    GtpError,
    GtpSyntaxError,
    LineReader,
    LocalProtocolError,
    RemoteProtocolError,
    Response,
    format_score,
    format_vertex,
    parse_colour,
    parse_score,
    parse_vertex,
    preprocess,
)


def run(d: Dispatcher, text: str) -> tuple[bytes, bool]:
    out = b""
    ended = False
    for line in text.split("\n"):
        resp, end = d.handle_line(line)
        out += resp
        if end:
            ended = True
            break
    return out, ended


def make() -> Dispatcher:
    d = Dispatcher()
    d.register("name", lambda a: "corvid")
    d.register("echo", lambda a: " ".join(a))

    def fail(a: list[str]) -> str:
        raise GtpError("illegal move")

    def syntax(a: list[str]) -> str:
        raise GtpSyntaxError()

    def boom(a: list[str]) -> str:
        raise RuntimeError("bug")

    d.register("fail", fail)
    d.register("syn", syntax)
    d.register("boom", boom)
    d.register("multi", lambda a: "line1\n\nline3\n")
    d.register("empty", lambda a: None)
    d.register("board", lambda a: "\n . X\n\n . .\n")
    return d


def test_known_and_unknown_exact_bytes() -> None:
    out, _ = run(make(), "known_command name\nfrobnicate")
    assert out == b"= true\n\n? unknown command\n\n"


def test_ids_are_echoed() -> None:
    out, _ = run(make(), "12 name\n7 fail\n3 nosuch\n0 known_command quit")
    assert out == b"=12 corvid\n\n?7 illegal move\n\n?3 unknown command\n\n=0 true\n\n"


def test_empty_result_and_protocol_version() -> None:
    out, _ = run(make(), "empty\nprotocol_version")
    assert out == b"= \n\n= 2\n\n"


def test_preprocessing_comments_tabs_control_chars_empty_lines() -> None:
    d = make()
    script = "# a comment only\n\n   \n\techo\ta  b # trailing\n\x01ec\x7fho x\r\n\x00"
    out, _ = run(d, script)
    assert out == b"= a b\n\n= x\n\n"


def test_syntax_error_and_internal_error() -> None:
    out, _ = run(make(), "syn\nboom\n5")
    assert out == b"? syntax error\n\n? internal error\n\n?5 syntax error\n\n"


def test_empty_lines_inside_an_answer_are_kept_from_ending_it() -> None:
    out, _ = run(make(), "multi")
    assert out == b"= line1\n \nline3\n\n"


def test_answer_starting_with_a_newline() -> None:
    out, _ = run(make(), "3 board")
    assert out == b"=3 \n . X\n \n . .\n\n"


def test_quit_ends_the_session() -> None:
    out, ended = run(make(), "name\n9 quit\nname")
    assert out == b"= corvid\n\n=9 \n\n"
    assert ended


def test_list_commands_and_extension_registration() -> None:
    d = make()
    d.register("corvid-x", lambda a: "ok")
    out, _ = run(d, "list_commands\nknown_command corvid-x\ncorvid-x")
    listed = out.split(b"\n\n")[0].decode()[2:].split("\n")
    assert listed == sorted(listed)
    assert {"corvid-x", "quit", "known_command", "protocol_version", "name"} <= set(listed)
    assert out.endswith(b"= true\n\n= ok\n\n")
    with pytest.raises(ValueError):
        d.register("two words", lambda a: "")


def test_handle_line_accepts_bytes() -> None:
    assert make().handle_line(b"echo \xff") == ("= \ufffd\n\n".encode(), False)


def test_preprocess() -> None:
    assert preprocess("a\tb#c") == "a b"
    assert preprocess("\x1b[0m") == "[0m"
    assert preprocess("   # x") == ""


@pytest.mark.parametrize(
    ("text", "vertex"),
    [("A1", (0, 0)), ("a1", (0, 0)), ("J9", (8, 8)), ("H8", (7, 7)), ("t19", (18, 18)),
     ("PASS", None), ("pass", None)],
)
def test_vertices(text: str, vertex: tuple[int, int] | None) -> None:
    assert parse_vertex(text, 19) == vertex
    assert format_vertex(vertex).lower() == text.lower()


@pytest.mark.parametrize("bad", ["I5", "A0", "A", "5A", "", "A-1", "AA1", "A01", "A²"])
def test_bad_vertices_are_syntax_errors(bad: str) -> None:
    with pytest.raises(GtpSyntaxError):
        parse_vertex(bad, 19)


def test_vertex_off_the_board_is_an_illegal_move() -> None:
    with pytest.raises(GtpError, match="illegal move"):
        parse_vertex("K10", 9)
    assert parse_vertex("J9", 9) == (8, 8)


def test_colours() -> None:
    assert [parse_colour(c) for c in ("b", "B", "black", "BLACK", "w", "White")] == [
        0, 0, 0, 0, 1, 1]
    with pytest.raises(GtpSyntaxError):
        parse_colour("red")


def test_scores() -> None:
    assert [format_score(s) for s in (3.5, -2, 0)] == ["B+3.5", "W+2", "0"]
    assert [parse_score(t) for t in ("B+3.5", "W+2", "0", "w+7.0")] == [3.5, -2.0, 0.0, -7.0]
    with pytest.raises(ValueError):
        parse_score("B+R")


def test_line_reader_byte_at_a_time() -> None:
    r = LineReader()
    lines: list[str] = []
    for b in b"name\r\nplay b c3\nlast":
        r.receive_data(bytes([b]))
        lines.extend(r.lines())
    assert lines == ["name\r", "play b c3"]
    r.receive_data(b"")
    assert list(r.lines()) == ["last"]


def test_controller_against_dispatcher_in_memory_byte_at_a_time() -> None:
    d = make()
    c = Controller(use_ids=True)
    answers: list[Response] = []
    for cmd in (("name",), ("echo", "x", "y"), ("fail",), ("multi",), ("nosuch",)):
        data = c.send(*cmd)
        out, _ = d.handle_line(data.decode().rstrip("\n"))
        for b in out:
            c.receive_data(bytes([b]))
            r = c.next_response()
            if r is not None:
                answers.append(r)
    assert answers == [
        Response(True, "corvid", 1),
        Response(True, "x y", 2),
        Response(False, "illegal move", 3),
        Response(True, "line1\n \nline3", 4),
        Response(False, "unknown command", 5),
    ]


def test_controller_handles_crlf_and_stray_blank_lines() -> None:
    c = Controller()
    c.receive_data(b"\r\n= D4\r\n\r\n=  \n\n")
    assert c.next_response() == Response(True, "D4")
    assert c.next_response() == Response(True, "")
    assert c.next_response() is None


def test_controller_errors_say_whose_fault() -> None:
    c = Controller()
    with pytest.raises(LocalProtocolError):
        c.send("play", "b", "c3\nquit")
    c.receive_data(b"hello\n")
    with pytest.raises(RemoteProtocolError):
        c.next_response()
    c2 = Controller()
    c2.receive_data(b"= D4\n")
    c2.receive_data(b"")
    with pytest.raises(RemoteProtocolError):
        c2.next_response()
    c3 = Controller()
    c3.receive_data(b"=x\n\n")
    with pytest.raises(RemoteProtocolError):
        c3.next_response()
