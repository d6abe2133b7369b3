"""What tests and scripts share, one job a module: the server (`server`), browser waits and reads
(`browser`), what a drawing measures (`drawing`), AppTest on a page (`apptest`), the command line
(`cli`), refusals in one sentence (`messages`), plotly figures as JSON (`figures`), saved runs
(`saved_runs`), .efg games made here (`efg_shapes`), large uploads (`big_uploads`), memory (`memory`,
`capped_child`), the CFR oracle (`plain_cfr`) and a stopped script (`script_stop`).
"""
