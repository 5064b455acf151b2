"""軍艦将棋 Gunkan Shogi: rules, views, the piece table, the seesaw glue, the screen and calibration wizard."""
