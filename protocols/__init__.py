"""Sans-I/O codecs (UECda, GTP, ICFPT host) and the one transport module."""
