from campaign.charts import Series, balance_series, line_chart


def test_balance_series_runs_the_total_through_every_day():
    assert balance_series([(1, 100), (3, -30), (3, 5), (5, 10)], last_day=5) == [
        (1, 100),
        (2, 100),
        (3, 75),
        (4, 75),
        (5, 85),
    ]


def test_the_chart_draws_one_line_per_commander_with_an_escaped_legend():
    svg = line_chart([Series("Vey <3", [(1, 10), (2, 20)]), Series("Marr", [(1, 5), (2, -5)])])
    assert svg.count("<polyline") == 2
    assert "Vey &lt;3: 20" in svg and "Marr: -5" in svg
    assert "<script" not in svg and "http://" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_no_data_draws_nothing():
    assert line_chart([Series("Nobody", [])]) == ""
