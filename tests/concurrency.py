"""Real concurrency: several calls released at the same instant (transactions, or requests to a live server)."""

import threading

from django.db import connection


def race(calls):
    """Run each call in its own thread and connection, released together; return results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the race's loser is part of the result
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
