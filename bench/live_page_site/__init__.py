"""A site for bench/live_page.py: Atout's own, plus one bare view to compare with."""
