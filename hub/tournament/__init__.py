"""The tournament layer: Swiss pairings, standings, the TD's record, the MQTT room
(Mosquitto between the tables' hubs and the tournament director), the round
clock every table shares, and results that are never lost. See docs/tournament.md."""
