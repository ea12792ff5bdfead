"""The admin's tournament add form as a browser posts it (head, two entries, one game)."""


def tournament_post_data(a, b, result="1-0", white=None, black=None):
    return {
        "name": "Vereinsmeisterschaft",
        "code": "",
        "place": "Ulm",
        "start_date": "2018-11-10",
        "end_date": "2018-11-15",
        "rounds": "1",
        "notes": "",
        "rated": "on",
        "entries-TOTAL_FORMS": "2",
        "entries-INITIAL_FORMS": "0",
        "entries-0-player": str(a.pk),
        "entries-0-start_rank": "1",
        "entries-0-member": "on",
        "entries-1-player": str(b.pk),
        "entries-1-start_rank": "2",
        "entries-1-member": "on",
        "games-TOTAL_FORMS": "1",
        "games-INITIAL_FORMS": "0",
        "games-0-round": "1",
        "games-0-white": str((white or a).pk),
        "games-0-black": str((black or b).pk),
        "games-0-result": result,
    }
