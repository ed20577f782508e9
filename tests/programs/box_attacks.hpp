// Attacks of a player on the state around it, for faulty_player (box_attacks.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

// Runs the attack `mode` with `args`, naming what it leaves with `mark`, and tells what it got
// on standard error; false when `mode` is none of them. Some end the player.
bool box_attack(std::string_view mode, std::vector<std::string> args, const std::string& mark);
