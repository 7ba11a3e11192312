#include "chaindem/restitution.hpp"
