"""What tests and scripts share: the server (`server`), browser waits (`browser`) and the CFR oracle
(`plain_cfr`).
"""
