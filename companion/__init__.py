"""companion: the digital referee and game tracker that sits beside physical board games."""

__version__ = "0.1.0"
