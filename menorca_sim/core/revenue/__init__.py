"""The revenue wing: what a company's routes earn and how a change of the map would
change it. routes (legal routes and the exact best assignment of a fleet to them), fleet
(one fleet searched again and again while single hexes change), lays (lay effects on
revenue), placements (one more station or market marker), context (what routes earn
besides the map), memo (revenues remembered by revenue key and fleet), scratch (the one
scratch object of a map's searches, owned by its MapTables). docs/architecture.md says
what the wing may import."""
