// A Tron bot in the style of the 2014 contest's C++ entries: a strict line reader on std::cin.
// It keeps its own board from GAMEBOARDSTART/POS lines and drives ahead, turning only to avoid a
// crash (right first, unlike the built-in "simple", which turns left first).
// Build: c++ -O2 -o dummybot dummybot.cpp      Run: robots-tron play BOARD ./dummybot strong
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
    std::vector<std::string> board;
    int width = 0, height = 0, me = 0, x = 0, y = 0, dir = 0;
    const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    const std::string names[4] = {"NORTH", "EAST", "SOUTH", "WEST"};
    std::string line;
    auto free_at = [&](int cx, int cy) {
        return cx >= 1 && cy >= 1 && cx <= width && cy <= height && board[cy - 1][cx - 1] == '.';
    };
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string word;
        in >> word;
        if (word == "GAMEBOARDSTART") {
            char comma;
            in >> width >> comma >> height;
            board.clear();
            for (int row = 0; row < height && std::getline(std::cin, line); ++row) board.push_back(line);
            std::getline(std::cin, line);  // GAMEBOARDEND
        } else if (word == "SET") {
            in >> me;
        } else if (word == "POS") {
            int p, px, py;
            char comma;
            std::string d;
            in >> p >> px >> comma >> py >> d;
            board[py - 1][px - 1] = '#';
            if (p == me) {
                x = px;
                y = py;
                for (int i = 0; i < 4; ++i)
                    if (names[i] == d) dir = i;
            }
        } else if (word == "ROUND") {
            const char* answer = "AHEAD";
            if (!free_at(x + dx[dir], y + dy[dir])) {
                int right = (dir + 1) % 4, left = (dir + 3) % 4;
                if (free_at(x + dx[right], y + dy[right])) answer = "RIGHT";
                else if (free_at(x + dx[left], y + dy[left])) answer = "LEFT";
            }
            std::cout << answer << std::endl;
        } else if (word == "END") {
            break;
        }
    }
    return 0;
}
