#include <gtest/gtest.h>

#include "chaindem/restitution.hpp"
